//! Running the build command before a restart, and finding the first
//! error in its output so an agent learns at once why its edit failed.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::Command;

#[derive(Debug, Clone, PartialEq)]
pub struct BuildCommand {
    /// Run with `sh -c`.
    pub shell: String,
    pub directory: PathBuf,
    pub timeout: Duration,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BuildFailure {
    /// `file:line[:col]: message`, or the best line we could find.
    pub first_error: String,
    /// How the command ended (exit code, timeout).
    pub how: String,
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.first_error, self.how)
    }
}

/// The process group a build leads (`process_group(0)`), killed when this
/// is dropped still holding it. `kill_on_drop` reaches the shell alone:
/// what it started (cargo, rustc) would go on using the cores and hold
/// cargo's lock against the next build.
struct WholeGroup(Option<u32>);

impl Drop for WholeGroup {
    fn drop(&mut self) {
        if let Some(group) = self.0 {
            // SAFETY: signals the build's own process group, nothing else.
            unsafe { libc::killpg(group as libc::pid_t, libc::SIGKILL) };
        }
    }
}

impl BuildCommand {
    /// Runs the build; its output is logged at debug level.
    pub async fn run(&self) -> (Result<(), BuildFailure>, Duration) {
        let started = Instant::now();
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(&self.shell)
            .current_dir(&self.directory)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let child = match command.spawn() {
            Ok(child) => child,
            Err(error) => {
                let failure = BuildFailure {
                    first_error: format!("cannot run `{}`: {error}", self.shell),
                    how: "not started".into(),
                };
                return (Err(failure), started.elapsed());
            }
        };
        // Until it ends, a build abandoned (timed out, or its call dropped)
        // is stopped whole.
        let mut group = WholeGroup(child.id());
        let output = match tokio::time::timeout(self.timeout, child.wait_with_output()).await {
            Ok(Ok(output)) => output,
            Ok(Err(error)) => {
                let failure =
                    BuildFailure { first_error: format!("build failed to run: {error}"), how: "error".into() };
                return (Err(failure), started.elapsed());
            }
            Err(_) => {
                let failure = BuildFailure {
                    first_error: format!("`{}` did not finish", self.shell),
                    how: format!("timed out after {} s", self.timeout.as_secs()),
                };
                return (Err(failure), started.elapsed());
            }
        };
        // Ended: what it left running on purpose (a compiler cache's
        // server) is its own business.
        group.0 = None;
        let text = format!("{}{}", String::from_utf8_lossy(&output.stderr), String::from_utf8_lossy(&output.stdout));
        for line in text.lines() {
            tracing::debug!(target: "rigor_mcp::build", "{line}");
        }
        let elapsed = started.elapsed();
        if output.status.success() {
            (Ok(()), elapsed)
        } else {
            let how = crate::supervisor::process::describe_exit(output.status);
            (Err(BuildFailure { first_error: first_error(&text), how: format!("the build {how}") }), elapsed)
        }
    }
}

/// The first error in compiler output, as `file:line[:col]: message`.
/// Understands rustc/cargo (`error[E…]: msg` then ` --> file:line:col`),
/// gcc/clang-style (`file:line:col: error: msg`) and Python tracebacks;
/// otherwise the first line mentioning an error, else the last line.
pub fn first_error(output: &str) -> String {
    let lines: Vec<&str> = output.lines().collect();
    // rustc: the headline, then the location a few lines below.
    for (index, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_headline = trimmed.starts_with("error[") || (trimmed.starts_with("error: ") && !is_summary(trimmed));
        if !is_headline {
            continue;
        }
        let message = trimmed.split_once(": ").map_or(trimmed, |(_, m)| m);
        let location =
            lines[index + 1..].iter().take(4).find_map(|l| l.trim_start().strip_prefix("--> ").map(str::trim));
        return match location {
            Some(location) => format!("{location}: {message}"),
            None => message.to_string(),
        };
    }
    // gcc and friends: file:line:col: error: message
    for line in &lines {
        if let Some((location, message)) = line.split_once(": error: ") {
            if location.split(':').nth(1).is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty()) {
                return format!("{location}: {message}");
            }
        }
    }
    // Python: File "x", line N … then the exception line.
    if let Some(index) = lines.iter().rposition(|l| l.trim_start().starts_with("File \"")) {
        let location = lines[index].trim();
        let file = location.split('"').nth(1).unwrap_or("?");
        let line = location
            .split("line ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .unwrap_or("?");
        if let Some(message) = lines[index + 1..].iter().rev().find(|l| l.contains("Error") || l.contains("Exception"))
        {
            return format!("{file}:{line}: {}", message.trim());
        }
    }
    let fallback =
        lines.iter().find(|l| names_an_error(l)).or_else(|| lines.iter().rev().find(|l| !l.trim().is_empty()));
    fallback.map_or_else(|| "the build failed without output".to_string(), |l| l.trim().to_string())
}

/// Does the line say "error" as a word (`LLVM ERROR:`, `Error 2`) or as the
/// end of a name (`IOError`)? A crate's name is not one: cargo's
/// `Compiling thiserror v2.0` once stood for a full disk's real error.
fn names_an_error(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.match_indices("error").any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let rest = &line[at + "error".len()..];
        let after = rest.strip_prefix('s').unwrap_or(rest).chars().next();
        let starts_word = before.is_none_or(|c| !c.is_alphanumeric() && c != '_')
            || (line[at..].starts_with("Er") && before.is_some_and(|c| c.is_alphabetic()));
        starts_word && after.is_none_or(|c| !c.is_alphabetic())
    })
}

/// cargo's closing lines, which name no location.
fn is_summary(line: &str) -> bool {
    line.starts_with("error: could not compile")
        || line.starts_with("error: aborting")
        || line.contains("previous error")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_errors_of_common_toolchains() {
        let rustc = "   Compiling rigor-engine v0.1.0\nwarning: unused variable\nerror[E0425]: cannot find value `x` in this scope\n  --> engine/src/cli/explain.rs:12:5\n   |\n12 |     x\n   |     ^ not found\n\nerror: could not compile `rigor-engine` (lib) due to 1 previous error\n";
        assert_eq!(first_error(rustc), "engine/src/cli/explain.rs:12:5: cannot find value `x` in this scope");
        let syntax = "error: expected one of `,`, `:`, or `}`, found `x`\n --> engine/src/rules/mod.rs:40:9\n";
        assert_eq!(first_error(syntax), "engine/src/rules/mod.rs:40:9: expected one of `,`, `:`, or `}`, found `x`");
        let gcc = "main.c: In function 'main':\nmain.c:3:5: error: 'y' undeclared\n";
        assert_eq!(first_error(gcc), "main.c:3:5: 'y' undeclared");
        let python = "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n  File \"engine.py\", line 7\n    def broken(:\n               ^\nSyntaxError: invalid syntax\n";
        assert_eq!(first_error(python), "engine.py:7: SyntaxError: invalid syntax");
        assert_eq!(first_error("make: *** [all] Error 2\n"), "make: *** [all] Error 2");
        // A full disk: rustc may die (code 101) with LLVM's words, after cargo
        // named crates whose names hold "error".
        let full = "   Compiling thiserror v2.0.21\n   Compiling serde_core v1.0\nLLVM ERROR: IO failure on output stream: No space left on device\n";
        assert_eq!(first_error(full), "LLVM ERROR: IO failure on output stream: No space left on device");
        assert_eq!(first_error("   Compiling thiserror v2.0.21\nKilled\n"), "Killed");
        assert_eq!(
            first_error("build.rb:3: raised IOError: closed stream\nmore\n"),
            "build.rb:3: raised IOError: closed stream"
        );
        assert_eq!(first_error("   Compiling terrors v1\n3 errors, stopping\nbye\n"), "3 errors, stopping");
        assert_eq!(first_error("something odd\nlast words\n"), "last words");
        assert_eq!(first_error(""), "the build failed without output");
    }

    #[tokio::test]
    async fn a_failing_build_reports_its_first_error_and_exit_code() {
        let dir = tempfile::tempdir().unwrap();
        let command = BuildCommand {
            shell: "echo 'x.c:4:2: error: nope' >&2; exit 2".into(),
            directory: dir.path().to_path_buf(),
            timeout: Duration::from_secs(10),
        };
        let (outcome, _) = command.run().await;
        let failure = outcome.unwrap_err();
        assert_eq!(failure.first_error, "x.c:4:2: nope");
        assert_eq!(failure.how, "the build exited with code 2");
        let ok = BuildCommand { shell: "true".into(), ..command.clone() };
        assert!(ok.run().await.0.is_ok());
        let slow = BuildCommand { shell: "sleep 5".into(), timeout: Duration::from_millis(100), ..command };
        assert!(slow.run().await.0.unwrap_err().how.contains("timed out"));
    }

    /// A build that runs too long, or whose call is dropped, is stopped
    /// whole: `cargo build` under `sh -c` would leave rustc processes using
    /// the cores and holding cargo's lock against the next build.
    #[tokio::test]
    async fn an_abandoned_build_leaves_no_process_of_its_own_behind() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        // The shell starts a grandchild, writes down its pid, and waits.
        let command = BuildCommand {
            shell: format!("sleep 30 & echo $! > {}; wait", pids.display()),
            directory: dir.path().to_path_buf(),
            timeout: Duration::from_millis(500),
        };
        // Running means listed and not a zombie (its parent, the killed
        // shell, may not be reaped yet).
        let stopped = || {
            let grandchild = std::fs::read_to_string(&pids).unwrap().trim().to_string();
            let running = || {
                std::fs::read_to_string(format!("/proc/{grandchild}/stat"))
                    .is_ok_and(|stat| stat.rsplit(')').next().is_some_and(|rest| !rest.trim_start().starts_with('Z')))
            };
            (0..100).any(|_| {
                std::thread::sleep(Duration::from_millis(20));
                !running()
            })
        };
        let (outcome, _) = command.run().await;
        assert!(outcome.unwrap_err().how.contains("timed out"));
        assert!(stopped(), "a timed-out build's `sleep 30` outlived it");
        let long = BuildCommand { timeout: Duration::from_secs(60), ..command };
        assert!(tokio::time::timeout(Duration::from_millis(500), long.run()).await.is_err());
        assert!(stopped(), "a dropped build's `sleep 30` outlived it");
    }
}
