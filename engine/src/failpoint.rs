//! Failpoints: deliberate failures anyone can trigger to see how the
//! gateway copes. `RIGOR_FAILPOINT` is a comma-separated list of
//! `<where>:<action>`:
//!
//! - `<where>` is `startup` (the worker, before its hello), a command name
//!   (`check`, `explain`, …: every call of it), `<command>/<token>` (only
//!   calls whose arguments include the word `<token>`, so one fault can be
//!   aimed at one call among many), or `after-answer` (the work a worker
//!   does between calls, after each answer).
//! - `<action>` is `panic`, `abort`, `exit` (status 3), `hang` (sleep
//!   forever) or `garbage` (a non-JSON line on the real stdout and, in a
//!   worker, on the protocol channel).
//!
//! Example: `RIGOR_FAILPOINT=check:panic,explain/boom:hang,startup:exit`.

use std::io::Write;
use std::sync::atomic::{AtomicI32, Ordering};

pub const VARIABLE: &str = "RIGOR_FAILPOINT";

/// The worker's private protocol descriptor, for `garbage`; -1 outside a worker.
static PROTOCOL_FD: AtomicI32 = AtomicI32::new(-1);

pub fn set_protocol_fd(fd: i32) {
    PROTOCOL_FD.store(fd, Ordering::Relaxed);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Panic,
    Abort,
    Exit,
    Hang,
    Garbage,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Failpoint {
    place: String,
    token: Option<String>,
    action: Action,
}

fn parse(spec: &str) -> Vec<Failpoint> {
    spec.split(',')
        .filter_map(|item| {
            let (place, action) = item.trim().rsplit_once(':')?;
            let action = match action {
                "panic" => Action::Panic,
                "abort" => Action::Abort,
                "exit" => Action::Exit,
                "hang" => Action::Hang,
                "garbage" => Action::Garbage,
                _ => return None,
            };
            let (place, token) = match place.split_once('/') {
                Some((place, token)) => (place, Some(token.to_string())),
                None => (place, None),
            };
            Some(Failpoint { place: place.to_string(), token, action })
        })
        .collect()
}

/// The action armed for `place` given these arguments, if any.
fn armed(place: &str, args: &[String]) -> Option<(Action, String)> {
    let spec = std::env::var(VARIABLE).ok()?;
    parse(&spec).into_iter().find_map(|point| {
        let matches = point.place == place && point.token.as_ref().is_none_or(|token| args.iter().any(|a| a == token));
        matches.then(|| (point.action, format!("{place}:{:?}", point.action).to_lowercase()))
    })
}

/// Fires the failpoint armed for this command, if any.
pub fn at_command(command: &str, args: &[String]) {
    if let Some((action, name)) = armed(command, args) {
        fire(action, &name);
    }
}

/// Fires the `startup` failpoint, if armed.
pub fn at_startup() {
    if let Some((action, name)) = armed("startup", &[]) {
        fire(action, &name);
    }
}

fn fire(action: Action, name: &str) {
    eprintln!("rigor: failpoint {name} fired");
    match action {
        Action::Panic => panic!("failpoint {name}"),
        Action::Abort => std::process::abort(),
        Action::Exit => std::process::exit(3),
        Action::Hang => loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        },
        Action::Garbage => {
            let line = b"this line is not JSON (failpoint garbage)\n";
            let _ = std::io::stdout().write_all(line);
            let _ = std::io::stdout().flush();
            let fd = PROTOCOL_FD.load(Ordering::Relaxed);
            if fd >= 0 {
                // SAFETY: writing a byte buffer to a descriptor we own.
                unsafe {
                    libc::write(fd, line.as_ptr().cast(), line.len());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_optional_tokens_and_skip_nonsense() {
        let points = parse("check:panic, explain/boom:hang,startup:exit,bogus,check:explode");
        assert_eq!(
            points,
            vec![
                Failpoint { place: "check".into(), token: None, action: Action::Panic },
                Failpoint { place: "explain".into(), token: Some("boom".into()), action: Action::Hang },
                Failpoint { place: "startup".into(), token: None, action: Action::Exit },
            ]
        );
    }
}
