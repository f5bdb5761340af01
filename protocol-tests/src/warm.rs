//! The differential test of the warm project model: on a copy of real
//! code, a seeded sequence of random edits (bodies, methods added, renamed
//! and removed, classes added, files added and deleted, `sig/` and config
//! edits, same-size rewrites with the mtime put back), and after each the
//! warm worker's `check --format json` must equal a fresh process's, byte
//! for byte.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A small deterministic generator (xorshift64*), so a seed replays.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// A `rigor worker` spoken to over the private pipe protocol.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Worker {
    pub fn start(rigor: &Path) -> Worker {
        Worker::start_with_env(rigor, &[])
    }

    /// A worker with these variables set in its environment.
    pub fn start_with_env(rigor: &Path, env: &[(&str, &str)]) -> Worker {
        let mut child = Command::new(rigor)
            .arg("worker")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start rigor worker");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut hello = String::new();
        stdout.read_line(&mut hello).expect("hello");
        assert!(hello.contains("\"hello\""), "no hello: {hello}");
        Worker { child, stdin, stdout, next_id: 0 }
    }

    /// Runs `rigor <argv>` in the worker: (exit code, stdout, the result).
    pub fn call(&mut self, argv: &[&str], cwd: &Path) -> (i64, String, Value) {
        self.next_id += 1;
        let request = json!({"type": "call", "id": self.next_id, "argv": argv, "cwd": cwd});
        writeln!(self.stdin, "{request}").expect("send");
        self.stdin.flush().expect("flush");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("answer");
        let result: Value = serde_json::from_str(&line).expect("JSON answer");
        assert_eq!(result["id"], json!(self.next_id), "{result}");
        let code = result["exit_code"].as_i64().expect("exit code");
        let out = result["stdout"].as_str().expect("stdout").to_string();
        (code, out, result)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The kinds of edit, each as likely.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    Body,
    AddMethod,
    RenameMethod,
    RemoveMethod,
    AddClass,
    AddFile,
    DeleteFile,
    Signature,
    Config,
    SameSizeRewrite,
    CallTypo,
    Mixin,
    IvarRetype,
    OutsideIvarWrite,
    ConstantRetype,
    Visibility,
    Arity,
}

const EDITS: &[Edit] = &[
    Edit::Body,
    Edit::AddMethod,
    Edit::RenameMethod,
    Edit::RemoveMethod,
    Edit::AddClass,
    Edit::AddFile,
    Edit::DeleteFile,
    Edit::Signature,
    Edit::Config,
    Edit::SameSizeRewrite,
    Edit::CallTypo,
    Edit::Mixin,
    Edit::IvarRetype,
    Edit::OutsideIvarWrite,
    Edit::ConstantRetype,
    Edit::Visibility,
    Edit::Arity,
];

/// Values of another type than most, for retyping edits.
const RETYPED_VALUES: [&str; 4] = ["7", "\"s\"", "nil", "[:a]"];

/// The first instance variable the file assigns (`@name =`), if any.
fn ivar_in(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|line| {
        let at = line.find('@')?;
        let name: String = line[at + 1..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let assigned = line[at + 1 + name.len()..].trim_start().starts_with("= ");
        (!name.is_empty() && assigned).then(|| format!("@{name}"))
    })
}

/// The line of the first plain constant assignment (`NAME = value` on one
/// line, `NAME` in capitals), if any.
fn constant_assignment_in(lines: &[String]) -> Option<usize> {
    lines.iter().position(|line| {
        let Some((name, value)) = line.trim_start().split_once(" = ") else { return false };
        !value.trim().is_empty()
            && !value.trim_end().ends_with(['(', '[', '{', ',', '\\'])
            && !value.contains("<<")
            && !value.trim_end().ends_with(" do")
            && !value.contains(" do |")
            && name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}

/// A `def` line with a required parameter `rigor_arg_N` first; `None`
/// for operators and setters.
fn with_parameter(line: &str, n: usize) -> Option<String> {
    let start = line.find("def ")? + 4;
    let after_self = if line[start..].starts_with("self.") { start + 5 } else { start };
    let name_len = line[after_self..]
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '?' | '!')))
        .unwrap_or(line.len() - after_self);
    if name_len == 0 {
        return None;
    }
    let end = after_self + name_len;
    let (head, rest) = line.split_at(end);
    if let Some(inside) = rest.strip_prefix('(') {
        let separator = if inside.starts_with(')') { "" } else { ", " };
        return Some(format!("{head}(rigor_arg_{n}{separator}{inside}"));
    }
    // `def name`, `def name = value`, `def name; end`, `def name # note`
    // (not `def name a, b`).
    let next = rest.trim_start();
    let plain = next.is_empty() || next.starts_with(';') || next.starts_with('#') || next.starts_with("= ");
    (plain && (rest.is_empty() || rest.starts_with([' ', ';']))).then(|| format!("{head}(rigor_arg_{n}){rest}"))
}

/// A project being edited: its root and the directory checked.
pub struct Project {
    pub root: PathBuf,
    pub checked: String,
    added: usize,
}

impl Project {
    pub fn new(root: PathBuf, checked: &str) -> Project {
        Project { root, checked: checked.to_string(), added: 0 }
    }

    fn ruby_files(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let mut stack = vec![self.root.join(&self.checked)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rb") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    /// Applies one random edit; says what it did.
    pub fn edit(&mut self, rng: &mut Rng) -> String {
        let kind = EDITS[rng.below(EDITS.len())];
        let files = self.ruby_files();
        if files.is_empty() {
            return self.add_file(rng);
        }
        let file = files[rng.below(files.len())].clone();
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let shown = file.strip_prefix(&self.root).unwrap_or(&file).display().to_string();
        let defs: Vec<usize> = (0..lines.len()).filter(|i| lines[*i].trim_start().starts_with("def ")).collect();
        let classes: Vec<usize> = (0..lines.len())
            .filter(|i| lines[*i].trim_start().starts_with("class ") && !lines[*i].contains("<<"))
            .collect();
        let (ivar, constant) = (ivar_in(&lines), constant_assignment_in(&lines));
        self.added += 1;
        let n = self.added;
        let what = match kind {
            Edit::Body if !defs.is_empty() => {
                let at = defs[rng.below(defs.len())];
                let body = [
                    "rigor_probe = 1",
                    "rigor_probe = \"s\"",
                    "return nil if rigor_probe_flag",
                    "@rigor_probe = [1]",
                    // What the method returns changes (from untyped, often).
                    "return 7",
                ];
                lines.insert(at + 1, body[rng.below(body.len())].to_string());
                format!("body edit after {shown}:{}", at + 1)
            }
            Edit::AddMethod | Edit::Body if !classes.is_empty() => {
                let at = classes[rng.below(classes.len())];
                let returns = ["42", "\"text\"", "[1, 2]", "nil", "self", "label"];
                lines.insert(at + 1, format!("def rigor_added_{n} = {}", returns[rng.below(returns.len())]));
                format!("method added in {shown}:{}", at + 1)
            }
            Edit::RenameMethod if !defs.is_empty() => {
                let at = defs[rng.below(defs.len())];
                lines[at] = lines[at].replacen("def ", &format!("def r{n}_"), 1);
                format!("method renamed at {shown}:{}", at + 1)
            }
            Edit::RemoveMethod if !defs.is_empty() => {
                let at = defs[rng.below(defs.len())];
                let indent = lines[at].len() - lines[at].trim_start().len();
                let end = (at + 1..lines.len().min(at + 40)).find(|i| {
                    let line = &lines[*i];
                    line.trim() == "end" && line.len() - line.trim_start().len() == indent
                });
                match end {
                    Some(end) => {
                        lines.drain(at..=end);
                        format!("method removed at {shown}:{}", at + 1)
                    }
                    None => {
                        lines.remove(at);
                        format!("def line removed at {shown}:{}", at + 1)
                    }
                }
            }
            Edit::AddClass => {
                let parent = classes
                    .first()
                    .and_then(|at| lines[*at].trim_start().strip_prefix("class "))
                    .and_then(|rest| rest.split_whitespace().next())
                    .map(str::to_string);
                let header = match parent {
                    Some(parent) if rng.below(2) == 0 => format!("class RigorAdded{n} < {parent}"),
                    _ => format!("class RigorAdded{n}"),
                };
                lines.push(format!("{header}\n  def made = {n}\nend\nRigorAdded{n}.new.made\nRigorAdded{n}.new.mdae"));
                format!("class added to {shown}")
            }
            Edit::AddFile => return self.add_file(rng),
            Edit::DeleteFile => {
                let _ = std::fs::remove_file(&file);
                return format!("deleted {shown}");
            }
            Edit::Signature => return self.edit_signature(rng),
            Edit::Config => return self.edit_config(rng),
            Edit::SameSizeRewrite => return same_size_rewrite(&file, &shown),
            Edit::CallTypo if !classes.is_empty() => {
                let at = classes[rng.below(classes.len())];
                let name = lines[at]
                    .trim_start()
                    .trim_start_matches("class ")
                    .split_whitespace()
                    .next()
                    .unwrap_or("Object")
                    .to_string();
                lines.push(format!("{name}.new.rigor_typo_{n}"));
                format!("typo call on {name} in {shown}")
            }
            // A module defining one of the file's method names, mixed into
            // a class (ahead of what it inherits) or into single objects.
            Edit::Mixin if !classes.is_empty() && !defs.is_empty() => {
                let def = &lines[defs[rng.below(defs.len())]];
                let method: String = def
                    .trim_start()
                    .trim_start_matches("def ")
                    .trim_start_matches("self.")
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '?' | '!'))
                    .collect();
                let at = classes[rng.below(classes.len())];
                // Or one object given that name, or a core method's name,
                // of its own (which every call of the name may reach).
                // Or a core class given one through a receiver (a module
                // prepended to it, or `define_method` on it), or what a
                // reader of that name gives mutated.
                let core = ["size", "first", "upcase", "to_s"][rng.below(4)];
                let variant = rng.below(7);
                match variant {
                    0 => lines.insert(at + 1, format!("include RigorMixin{n}")),
                    1 => lines.insert(at + 1, format!("def rigor_extend_{n}(o) = o.extend(RigorMixin{n})")),
                    2 => lines.push(format!("rigor_object_{n} = Object.new\ndef rigor_object_{n}.{method} = {n}")),
                    3 => lines.push(format!("rigor_object_{n} = +\"\"\ndef rigor_object_{n}.{core} = {n}")),
                    4 => lines.push(format!("String.prepend(RigorMixin{n})\nArray.include(RigorMixin{n})")),
                    5 => lines.push(format!("Array.define_method(:{core}) {{ {n} }}")),
                    // What a reader of that name gives, changed in place.
                    _ => lines.push(format!("Object.new.{method} << {n}")),
                }
                let defined = if variant == 4 { core } else { method.as_str() };
                lines.insert(0, format!("module RigorMixin{n}\n  def {defined} = {n}\nend"));
                format!("mixin of {method} into {shown}:{}", at + 1)
            }
            // An instance variable the file already uses is given a new
            // type of value (what other files of its class read changes).
            Edit::IvarRetype if !defs.is_empty() && ivar.is_some() => {
                let ivar = ivar.expect("checked");
                let at = defs[rng.below(defs.len())];
                let value = RETYPED_VALUES[rng.below(RETYPED_VALUES.len())];
                lines.insert(at + 1, format!("{ivar} = {value}"));
                format!("{ivar} retyped after {shown}:{}", at + 1)
            }
            // An instance variable the file uses is written, at its top
            // level, into an object nobody can name (any class's of that
            // name may hold it since).
            Edit::OutsideIvarWrite => {
                // Names most classes of a corpus share when the file has none.
                let ivar = ivar.unwrap_or_else(|| ["@config", "@options", "@name"][rng.below(3)].to_string());
                let value = RETYPED_VALUES[rng.below(RETYPED_VALUES.len())];
                // Or one of its classes is allocated: its objects may lack
                // what `initialize` assigns.
                let class: Option<String> = (!classes.is_empty()).then(|| {
                    lines[classes[rng.below(classes.len())]]
                        .trim_start()
                        .trim_start_matches("class ")
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':'))
                        .collect()
                });
                match (rng.below(3), class) {
                    (2, Some(class)) if !class.is_empty() => {
                        lines.push(format!("{class}.allocate"));
                        format!("{class} allocated at the end of {shown}")
                    }
                    (0, _) => {
                        lines.push(format!("Object.new.instance_variable_set(:{ivar}, {value})"));
                        format!("{ivar} written from outside at the end of {shown}")
                    }
                    _ => {
                        lines.push(format!("Object.new.instance_eval {{ {ivar} = {value} }}"));
                        format!("{ivar} written from outside at the end of {shown}")
                    }
                }
            }
            // A constant the file assigns gets a value of another type.
            Edit::ConstantRetype if constant.is_some() => {
                let at = constant.expect("checked");
                let (name, _) = lines[at].split_once(" = ").expect("an assignment");
                lines[at] = format!("{name} = {}", RETYPED_VALUES[rng.below(RETYPED_VALUES.len())]);
                format!("constant retyped at {shown}:{}", at + 1)
            }
            // A method becomes private (lookups from outside change).
            Edit::Visibility if !defs.is_empty() => {
                let at = defs[rng.below(defs.len())];
                let (indent, rest) = lines[at].split_at(lines[at].len() - lines[at].trim_start().len());
                lines[at] = format!("{indent}private {rest}");
                format!("method made private at {shown}:{}", at + 1)
            }
            // A method takes one more argument (its calls elsewhere may
            // now pass too few).
            Edit::Arity if defs.iter().any(|at| with_parameter(&lines[*at], n).is_some()) => {
                let fit: Vec<usize> =
                    defs.iter().copied().filter(|at| with_parameter(&lines[*at], n).is_some()).collect();
                let at = fit[rng.below(fit.len())];
                lines[at] = with_parameter(&lines[at], n).expect("checked");
                format!("parameter added at {shown}:{}", at + 1)
            }
            _ => {
                lines.push(format!("RIGOR_CONSTANT_{n} = {n}"));
                format!("constant added to {shown}")
            }
        };
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(&file, out).expect("write edit");
        what
    }

    fn add_file(&mut self, rng: &mut Rng) -> String {
        self.added += 1;
        let n = self.added;
        let dir = self.root.join(&self.checked);
        let classes = self.class_names();
        let reopened = classes.get(rng.below(classes.len().max(1))).cloned().unwrap_or_else(|| "Object".into());
        let body = format!(
            "class {reopened}\n  def rigor_file_{n} = [{n}]\nend\n\nclass RigorFile{n}\n  LIMIT = {n}\n  def go = RigorFile{n}::LIMIT\nend\nRigorFile{n}.new.go\n"
        );
        let path = dir.join(format!("rigor_added_{n}.rb"));
        std::fs::write(&path, body).expect("add file");
        format!("added {} reopening {reopened}", path.strip_prefix(&self.root).unwrap_or(&path).display())
    }

    fn class_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        for file in self.ruby_files().iter().take(50) {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for line in text.lines() {
                if let Some(rest) = line.strip_prefix("class ") {
                    if let Some(name) = rest.split_whitespace().next() {
                        if name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) {
                            out.push(name.to_string());
                        }
                    }
                }
            }
        }
        out
    }

    fn edit_signature(&mut self, rng: &mut Rng) -> String {
        let sig = self.root.join("sig");
        std::fs::create_dir_all(&sig).expect("sig dir");
        let classes = self.class_names();
        let class = classes.get(rng.below(classes.len().max(1))).cloned().unwrap_or_else(|| "String".into());
        let returns = ["Integer", "String", "bool", "Array[Symbol]"];
        let text = format!(
            "class {class}\n  def rigor_sig_{}: () -> {}\nend\n",
            self.added,
            returns[rng.below(returns.len())]
        );
        let path = sig.join("rigor.rbs");
        if rng.below(4) == 0 {
            let _ = std::fs::remove_file(&path);
            return "sig/rigor.rbs removed".into();
        }
        std::fs::write(&path, text).expect("write sig");
        format!("sig/rigor.rbs declares {class}")
    }

    fn edit_config(&mut self, rng: &mut Rng) -> String {
        let configs = [
            "severity_profile: strict\n",
            "severity_profile: lenient\n",
            "disable:\n  - flow.dead-assignment\n",
            "severity_overrides:\n  call.undefined-method: warning\n",
            "paths:\n  - lib\nexclude:\n  - lib/**/rigor_added_*.rb\n",
            "",
        ];
        let text = configs[rng.below(configs.len())];
        let path = self.root.join(".rigor.yml");
        if text.is_empty() {
            let _ = std::fs::remove_file(&path);
            return ".rigor.yml removed".into();
        }
        std::fs::write(&path, text).expect("write config");
        format!(".rigor.yml: {}", text.trim().replace('\n', " "))
    }
}

/// Rewrites a file with content of the same size and puts its mtime back,
/// the edit a stat-only cache misses.
fn same_size_rewrite(file: &Path, shown: &str) -> String {
    let Ok(bytes) = std::fs::read(file) else { return "nothing to rewrite".into() };
    let Ok(mtime) = std::fs::metadata(file).and_then(|m| m.modified()) else { return "no mtime".into() };
    let mut changed = bytes.clone();
    // Swap one digit for another, or an `a` for a `b`: same size.
    match changed.iter().position(|b| b.is_ascii_digit()) {
        Some(at) => changed[at] = if changed[at] == b'9' { b'1' } else { changed[at] + 1 },
        None => match changed.iter().position(|b| *b == b'a') {
            Some(at) => changed[at] = b'b',
            None => return "nothing to rewrite".into(),
        },
    }
    std::fs::write(file, &changed).expect("rewrite");
    if let Ok(handle) = std::fs::File::options().write(true).open(file) {
        let _ = handle.set_modified(mtime);
    }
    format!("same-size rewrite of {shown}, mtime restored")
}

/// One compared step.
pub struct Step {
    pub edit: String,
    pub warm: Duration,
    pub cold: Duration,
}

/// Runs `edits` random edits; after each, compares warm and cold `check`
/// output. Panics with the edit log at the first difference.
pub fn run(rigor: &Path, project: &mut Project, seed: u64, edits: usize, mut on_step: impl FnMut(usize, &Step)) {
    let mut rng = Rng::new(seed);
    let mut worker = Worker::start(rigor);
    let checked = project.checked.clone();
    let argv = ["check", "--format=json", "--no-stats", "--", checked.as_str()];
    let mut log: Vec<String> = Vec::new();
    // The first (cold) call fills the model.
    compare(rigor, &mut worker, &project.root, &argv, &log, &checked);
    for step in 0..edits {
        let edit = project.edit(&mut rng);
        log.push(edit.clone());
        let (warm, cold) = compare(rigor, &mut worker, &project.root, &argv, &log, &checked);
        on_step(step, &Step { edit, warm, cold });
    }
}

fn compare(
    rigor: &Path,
    worker: &mut Worker,
    root: &Path,
    argv: &[&str],
    log: &[String],
    checked: &str,
) -> (Duration, Duration) {
    let started = Instant::now();
    let (warm_code, warm_out, _) = worker.call(argv, root);
    let warm = started.elapsed();
    let started = Instant::now();
    let cold = Command::new(rigor).args(argv).current_dir(root).output().expect("run rigor check");
    let cold_time = started.elapsed();
    let cold_out = String::from_utf8_lossy(&cold.stdout).into_owned();
    // Asked again with nothing changed, the model must answer the same.
    let (again_code, again_out, _) = worker.call(argv, root);
    assert!(
        again_out == warm_out && again_code == warm_code,
        "a second warm call with nothing changed answered differently after {} edit(s)",
        log.len()
    );
    if warm_out != cold_out || Some(warm_code as i32) != cold.status.code() {
        let diff = first_difference(&warm_out, &cold_out);
        panic!(
            "warm and cold `rigor check {checked}` differ after {} edit(s):\n{}\nexit codes: warm {warm_code}, cold {:?}\n{diff}",
            log.len(),
            numbered(log),
            cold.status.code(),
        );
    }
    // A command that types every expression of every file (from the same
    // model, which keeps its counts per file while the index stands) is
    // asked after every edit, and must agree with a fresh process every
    // third: a count kept when it should not be would still be in use.
    // So is sig-gen, which keeps each file's part the same way.
    let coverage = ["coverage", "--format=json", checked];
    let sig_gen = ["sig-gen", "--format=json", "--params=observed", checked];
    for argv in [&coverage[..], &sig_gen[..]] {
        let (_, warm_out, _) = worker.call(argv, root);
        if log.len() % 3 != 0 {
            continue;
        }
        let cold = Command::new(rigor).args(argv).current_dir(root).output().expect("run rigor");
        let cold_out = String::from_utf8_lossy(&cold.stdout);
        if warm_out != cold_out {
            panic!(
                "warm and cold `rigor {}` differ after {} edit(s):\n{}\n{}",
                argv.join(" "),
                log.len(),
                numbered(log),
                first_difference(&warm_out, &cold_out),
            );
        }
    }
    (warm, cold_time)
}

/// The edits so far, one numbered line each.
fn numbered(log: &[String]) -> String {
    log.iter().enumerate().map(|(i, e)| format!("  {}. {e}", i + 1)).collect::<Vec<_>>().join("\n")
}

fn first_difference(warm: &str, cold: &str) -> String {
    let (w, c): (Vec<&str>, Vec<&str>) = (warm.lines().collect(), cold.lines().collect());
    for i in 0..w.len().max(c.len()) {
        if w.get(i) != c.get(i) {
            let from = i.saturating_sub(3);
            let warm_part = w[from.min(w.len())..(i + 4).min(w.len())].join("\n");
            let cold_part = c[from.min(c.len())..(i + 4).min(c.len())].join("\n");
            return format!("first difference at line {}:\n--- warm\n{warm_part}\n--- cold\n{cold_part}", i + 1);
        }
    }
    "no line differs (trailing bytes?)".into()
}

/// Copies a directory tree (regular files and directories only).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create copy");
    for entry in std::fs::read_dir(from).expect("read corpus").flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else if path.is_file() {
            std::fs::copy(&path, &target).expect("copy file");
        }
    }
}

/// The same differential for the persistent cache: after each edit, a
/// fresh process reading and writing `cache` (filled by the ones before
/// it) must answer byte for byte as a fresh process without one, and say
/// nothing of the cache on stderr.
pub fn run_with_disk_cache(
    rigor: &Path,
    project: &mut Project,
    cache: &Path,
    seed: u64,
    edits: usize,
    mut on_step: impl FnMut(usize, &Step),
) {
    let mut rng = Rng::new(seed);
    let checked = project.checked.clone();
    let flag = format!("--cache-dir={}", cache.display());
    let cached = ["check", "--format=json", "--no-stats", flag.as_str(), "--", checked.as_str()];
    let plain = ["check", "--format=json", "--no-stats", "--", checked.as_str()];
    let mut log: Vec<String> = Vec::new();
    let root = project.root.clone();
    let run = |argv: &[&str]| {
        let started = Instant::now();
        let out = Command::new(rigor).args(argv).current_dir(&root).output().expect("run rigor check");
        (out, started.elapsed())
    };
    for step in 0..=edits {
        if step > 0 {
            log.push(project.edit(&mut rng));
        }
        let (with_cache, warm) = run(&cached);
        let (without, cold) = run(&plain);
        let stderr = String::from_utf8_lossy(&with_cache.stderr);
        let (warm_out, cold_out) =
            (String::from_utf8_lossy(&with_cache.stdout), String::from_utf8_lossy(&without.stdout));
        if warm_out != cold_out || with_cache.status.code() != without.status.code() || stderr.contains("cache") {
            panic!(
                "`rigor check {checked}` with a disk cache differs from one without after {} edit(s):\n{}\nexit codes: cached {:?}, plain {:?}\nstderr (cached): {stderr}\n{}",
                log.len(),
                numbered(&log),
                with_cache.status.code(),
                without.status.code(),
                first_difference(&warm_out, &cold_out),
            );
        }
        if step > 0 {
            on_step(step - 1, &Step { edit: log[step - 1].clone(), warm, cold });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::with_parameter;

    #[test]
    fn a_parameter_goes_first_where_the_def_line_allows_one() {
        assert_eq!(with_parameter("  def tag(word)", 3).as_deref(), Some("  def tag(rigor_arg_3, word)"));
        assert_eq!(with_parameter("  def tags = @tags", 3).as_deref(), Some("  def tags(rigor_arg_3) = @tags"));
        assert_eq!(with_parameter("  def self.go?()", 1).as_deref(), Some("  def self.go?(rigor_arg_1)"));
        assert_eq!(with_parameter("def run", 2).as_deref(), Some("def run(rigor_arg_2)"));
        assert_eq!(with_parameter("def x=(v)", 2), None);
        assert_eq!(with_parameter("def ==(other)", 2), None);
        assert_eq!(with_parameter("def tag word", 2), None);
    }
}
