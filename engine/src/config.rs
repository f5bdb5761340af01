//! Project configuration: `.rigor.yml`, else `.rigor.dist.yml` (the first
//! found wins, no merge), or the file `--config` names.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use crate::analysis::{BleedingEdge, Settings};
use crate::diagnostic::Severity;
use crate::model::params::ParameterPolicy;
use crate::rules::{self, Profile};
use crate::syntax::version::{RubyVersion, SUPPORTED};

pub const DISCOVERED_NAMES: &[&str] = &[".rigor.yml", ".rigor.dist.yml"];

/// Keys of the reference configuration this engine does not act on yet.
const KNOWN_UNUSED_KEYS: &[&str] = &[
    "includes",
    "pre_eval",
    "plugins",
    "cache",
    "parallel",
    "bundler",
    "rbs_collection",
    "dependencies",
    "plugins_io",
    "effects",
];

/// Keys this engine reads.
const USED_KEYS: &[&str] = &[
    "paths",
    "context_paths",
    "exclude",
    "disable",
    "severity_profile",
    "severity_overrides",
    "signature_paths",
    "libraries",
    "target_ruby",
    "bleeding_edge",
    "baseline",
    "cache_dir",
    "parameter_inference",
];

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConfigWarning {
    pub kind: &'static str,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct Config {
    /// The file read, if any.
    pub file: Option<PathBuf>,
    pub paths: Option<Vec<String>>,
    /// Files the model reads (their classes, methods, constants) that are
    /// never checked or reported: a dependency's sources.
    pub context_paths: Vec<String>,
    pub exclude: GlobSet,
    pub settings: Settings,
    pub warnings: Vec<ConfigWarning>,
    /// Directories of RBS signatures, resolved against the config file's
    /// directory.
    pub signature_paths: Vec<PathBuf>,
    /// Standard-library signature sets of the rbs gem to load (`json`, `set`).
    pub libraries: Vec<String>,
    /// `baseline: PATH` (resolved against the config file's directory) or
    /// `baseline: false`; `None` when the key is absent.
    pub baseline: Option<crate::baseline::Source>,
    /// `cache_dir: DIR` (resolved against the config file's directory):
    /// where the project model persists; `--cache-dir` beats it.
    pub cache_dir: Option<PathBuf>,
}

/// A configuration that cannot be used: which file, where, and why.
#[derive(Debug, thiserror::Error)]
#[error("{file}{}: {problem}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ConfigError {
    pub file: String,
    /// 1-based line of the offending value, when the problem has one.
    pub line: Option<usize>,
    pub problem: String,
}

/// A problem found while reading the text, before the file name is known.
#[derive(Debug, PartialEq)]
struct Problem {
    line: Option<usize>,
    message: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawConfig {
    paths: Option<Vec<String>>,
    context_paths: Option<Vec<String>>,
    exclude: Option<Vec<String>>,
    disable: Option<Vec<String>>,
    severity_profile: Option<ProfileName>,
    severity_overrides: Option<std::collections::BTreeMap<String, Level>>,
    signature_paths: Option<Vec<String>>,
    libraries: Option<Vec<String>>,
    target_ruby: Option<TargetRuby>,
    bleeding_edge: Option<RawBleedingEdge>,
    baseline: Option<RawBaseline>,
    cache_dir: Option<String>,
    parameter_inference: Option<RawPolicy>,
}

/// `parameter_inference: private | all | off`.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum RawPolicy {
    Private,
    All,
    Off,
}

/// `baseline: PATH | false`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawBaseline {
    Switch(bool),
    Path(String),
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ProfileName {
    Lenient,
    Balanced,
    Strict,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Level {
    Error,
    Warning,
    Info,
    Off,
}

/// `target_ruby: 3.4` (YAML reads it as a number) or `"3.4.1"`; an older
/// version is kept (as text) to say it is parsed with 3.3's grammar.
struct TargetRuby(RubyVersion, Option<String>);

impl<'de> Deserialize<'de> for TargetRuby {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = TargetRuby;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "a Ruby version ({SUPPORTED})")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TargetRuby, E> {
                match RubyVersion::parse_target(text) {
                    Some((version, older)) => Ok(TargetRuby(version, older.then(|| text.to_string()))),
                    None => Err(E::custom(format!("`{text}` is not a Ruby version the parser supports ({SUPPORTED})"))),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, number: f64) -> Result<TargetRuby, E> {
                // `{:?}` keeps the minor digit of `4.0`.
                self.visit_str(&format!("{number:?}"))
            }
            fn visit_u64<E: serde::de::Error>(self, number: u64) -> Result<TargetRuby, E> {
                self.visit_str(&number.to_string())
            }
            fn visit_i64<E: serde::de::Error>(self, number: i64) -> Result<TargetRuby, E> {
                self.visit_str(&number.to_string())
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// `bleeding_edge: true | false | [ids]`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawBleedingEdge {
    Switch(bool),
    Only(Vec<String>),
}

/// Loads the explicit file, else the first discovered one in `cwd`, else defaults.
pub fn load(cwd: &Path, explicit: Option<&str>) -> Result<Config, ConfigError> {
    let file = match explicit {
        Some(path) => Some(cwd.join(path)),
        None => DISCOVERED_NAMES.iter().map(|name| cwd.join(name)).find(|path| path.is_file()),
    };
    let Some(file) = file else { return Ok(Config::default()) };
    let shown = explicit
        .map(str::to_string)
        .unwrap_or_else(|| file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    let fail = |problem: Problem| ConfigError { file: shown.clone(), line: problem.line, problem: problem.message };
    let text =
        std::fs::read(&file).map_err(|e| fail(Problem { line: None, message: crate::files::describe_io_error(&e) }))?;
    parse(&text).map_err(fail).map(|mut config| {
        let base = file.parent().map(Path::to_path_buf).unwrap_or_else(|| cwd.to_path_buf());
        config.signature_paths = config.signature_paths.iter().map(|p| base.join(p)).collect();
        if let Some(crate::baseline::Source::IfPresent(path)) = &mut config.baseline {
            *path = base.join(&*path);
        }
        config.cache_dir = config.cache_dir.as_ref().map(|dir| base.join(dir));
        config.file = Some(file);
        config
    })
}

fn located(error: serde_yaml_ng::Error) -> Problem {
    Problem { line: error.location().map(|at| at.line()), message: strip_location(&error.to_string()) }
}

fn parse(text: &[u8]) -> Result<Config, Problem> {
    let value: serde_yaml_ng::Value = serde_yaml_ng::from_slice(text).map_err(located)?;
    let mut warnings = Vec::new();
    match &value {
        serde_yaml_ng::Value::Null => return Ok(Config::default()),
        serde_yaml_ng::Value::Mapping(map) => {
            for key in map.keys() {
                let key = key.as_str().unwrap_or("<non-string key>");
                if KNOWN_UNUSED_KEYS.contains(&key) {
                    warnings.push(ConfigWarning {
                        kind: "unsupported_key",
                        message: format!("`{key}` is not used by this engine yet; it has no effect"),
                    });
                } else if !USED_KEYS.contains(&key) {
                    warnings
                        .push(ConfigWarning { kind: "unknown_key", message: format!("unknown key `{key}` ignored") });
                }
            }
        }
        _ => {
            return Err(Problem {
                line: Some(1),
                message: "the configuration must be a mapping of keys to values".into(),
            })
        }
    }
    let raw: RawConfig = serde_yaml_ng::from_slice(text).map_err(located)?;

    let profile = match raw.severity_profile {
        None | Some(ProfileName::Balanced) => Profile::Balanced,
        Some(ProfileName::Lenient) => Profile::Lenient,
        Some(ProfileName::Strict) => Profile::Strict,
    };
    let mut overrides = Vec::new();
    for (token, level) in raw.severity_overrides.unwrap_or_default() {
        let severity = match level {
            Level::Error => Some(Severity::Error),
            Level::Warning => Some(Severity::Warning),
            Level::Info => Some(Severity::Info),
            Level::Off => None,
        };
        if rules::matching(&token).is_empty() {
            warnings.push(ConfigWarning {
                kind: "unknown_rule",
                message: format!("severity_overrides: `{token}` names no rule"),
            });
        }
        overrides.push((token, severity));
    }
    let disabled = raw.disable.unwrap_or_default();
    for token in &disabled {
        if rules::matching(token).is_empty() {
            warnings.push(ConfigWarning { kind: "unknown_rule", message: format!("disable: `{token}` names no rule") });
        }
    }
    let bleeding_edge = match raw.bleeding_edge {
        None | Some(RawBleedingEdge::Switch(false)) => BleedingEdge::Off,
        Some(RawBleedingEdge::Switch(true)) => BleedingEdge::All,
        Some(RawBleedingEdge::Only(tokens)) => {
            for token in &tokens {
                if rules::matching(token).is_empty() {
                    warnings.push(ConfigWarning {
                        kind: "unknown_rule",
                        message: format!("bleeding_edge: `{token}` names no rule"),
                    });
                }
            }
            BleedingEdge::Only(tokens)
        }
    };
    let baseline = match raw.baseline {
        None => None,
        Some(RawBaseline::Switch(false)) => Some(crate::baseline::Source::Off),
        Some(RawBaseline::Switch(true)) => {
            return Err(Problem {
                line: line_of_entry(text, "baseline", "true"),
                message: "baseline: expects a file path or `false`".into(),
            })
        }
        Some(RawBaseline::Path(path)) => Some(crate::baseline::Source::IfPresent(PathBuf::from(path))),
    };
    let mut exclude = GlobSetBuilder::new();
    for pattern in raw.exclude.unwrap_or_default() {
        let glob = Glob::new(&pattern).map_err(|e| Problem {
            line: line_of_entry(text, "exclude", &pattern),
            message: format!("exclude: `{pattern}`: {e}"),
        })?;
        exclude.add(glob);
    }
    let target_ruby = match raw.target_ruby {
        Some(TargetRuby(version, Some(older))) => {
            warnings.push(ConfigWarning {
                kind: "target_ruby",
                message: format!("target_ruby {older}: the parser knows Ruby 3.3 and later; {older} code is parsed with the 3.3 grammar"),
            });
            version
        }
        Some(TargetRuby(version, None)) => version,
        None => RubyVersion::default(),
    };
    Ok(Config {
        file: None,
        paths: raw.paths,
        context_paths: raw.context_paths.unwrap_or_default(),
        exclude: exclude.build().map_err(|e| Problem { line: None, message: format!("exclude: {e}") })?,
        settings: Settings {
            profile,
            disabled,
            overrides,
            target_ruby,
            bleeding_edge,
            signatures: None,
            parameter_inference: match raw.parameter_inference {
                None | Some(RawPolicy::Private) => ParameterPolicy::Private,
                Some(RawPolicy::All) => ParameterPolicy::All,
                Some(RawPolicy::Off) => ParameterPolicy::Off,
            },
        },
        warnings,
        signature_paths: raw.signature_paths.unwrap_or_default().into_iter().map(PathBuf::from).collect(),
        libraries: raw.libraries.unwrap_or_default(),
        baseline,
        cache_dir: raw.cache_dir.map(PathBuf::from),
    })
}

/// The line of the first mention of `entry` at or after the top-level
/// `key:` (for values checked after deserialization, which has no positions).
fn line_of_entry(text: &[u8], key: &str, entry: &str) -> Option<usize> {
    let text = crate::syntax::decoded(text);
    let lines: Vec<&str> = text.lines().collect();
    let key_line = lines.iter().position(|line| line.strip_prefix(key).is_some_and(|rest| rest.starts_with(':')))?;
    let found = lines[key_line..].iter().position(|line| line.contains(entry)).map_or(key_line, |i| key_line + i);
    Some(found + 1)
}

/// serde_yaml_ng appends " at line L column C"; the line is reported apart.
fn strip_location(message: &str) -> String {
    match message.find(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_unused_keys_warn() {
        let config = parse(b"paths: [app]\nfrobnicate: 1\nplugins: []\nsignature_paths: [sig]\n").unwrap();
        assert_eq!(config.paths, Some(vec!["app".to_string()]));
        let kinds: Vec<_> = config.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, ["unknown_key", "unsupported_key"]);
        assert_eq!(config.signature_paths, vec![PathBuf::from("sig")]);
    }

    #[test]
    fn every_bad_value_names_its_line() {
        let line_of = |text: &str| {
            let problem = parse(text.as_bytes()).err().unwrap_or_else(|| panic!("accepted: {text}"));
            (problem.line, problem.message)
        };
        let cases: &[(&str, usize, &str)] = &[
            ("paths: [app]\nseverity_profile: [1]\n", 2, "severity_profile"),
            ("paths: [app\n", 2, ""),
            ("\nseverity_profile: loud\n", 2, "loud"),
            ("paths: lib\n", 1, "paths"),
            ("paths: [lib]\nexclude: \"a[\"\n", 2, "exclude"),
            ("exclude:\n  - ok/**\n  - \"bad[\"\n", 3, "bad["),
            ("disable: 3\n", 1, "disable"),
            ("severity_overrides:\n  flow: info\n  flow.dead-assignment: loud\n", 3, "flow.dead-assignment"),
            ("severity_overrides: [flow]\n", 1, "severity_overrides"),
            ("signature_paths: {a: 1}\n", 1, "signature_paths"),
            ("libraries: set\n", 1, "libraries"),
            ("\n\ntarget_ruby: 9.9\n", 3, "9.9"),
            ("target_ruby: [3.4]\n", 1, "target_ruby"),
            ("- a\n- b\n", 1, "mapping"),
        ];
        let mut wrong = Vec::new();
        for (text, line, fragment) in cases {
            let (got_line, message) = line_of(text);
            if got_line != Some(*line) || !message.contains(fragment) || message.contains(" at line ") {
                wrong.push(format!("{text:?}: line {got_line:?}, {message}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn target_ruby_picks_the_parser_grammar() {
        let version = |text: &str| parse(text.as_bytes()).unwrap().settings.target_ruby;
        assert_eq!(version(""), RubyVersion::Latest);
        assert_eq!(version("target_ruby: 3.3\n"), RubyVersion::Ruby3_3);
        assert_eq!(version("target_ruby: \"3.4.2\"\n"), RubyVersion::Ruby3_4);
        assert_eq!(version("target_ruby: 4.0\n"), RubyVersion::Ruby4_0);
        assert!(parse(b"target_ruby: 4\n").is_err());
    }

    #[test]
    fn empty_values_are_defaults() {
        let config = parse(b"paths:\nexclude:\ndisable:\nseverity_overrides:\n").unwrap();
        assert_eq!(config.paths, None);
        assert!(config.settings.disabled.is_empty() && config.warnings.is_empty());
    }

    #[test]
    fn overrides_beat_the_profile_and_exact_ids_beat_families() {
        let config =
            parse(b"severity_profile: strict\nseverity_overrides:\n  flow: info\n  flow.always-raises: off\n").unwrap();
        let settings = &config.settings;
        assert_eq!(settings.severity_of(&rules::flow::dead_assignment::RULE), Some(Severity::Info));
        assert_eq!(settings.severity_of(&rules::flow::always_raises::RULE), None);
    }

    #[test]
    fn bleeding_edge_is_a_switch_or_a_list_of_rules() {
        let on = |text: &str| parse(text.as_bytes()).unwrap().settings.bleeding_edge;
        assert_eq!(on("paths: [lib]\n"), BleedingEdge::Off);
        assert_eq!(on("bleeding_edge: false\n"), BleedingEdge::Off);
        assert_eq!(on("bleeding_edge: true\n"), BleedingEdge::All);
        assert_eq!(
            on("bleeding_edge: [static.value-use.void]\n"),
            BleedingEdge::Only(vec!["static.value-use.void".into()])
        );
        let config = parse(b"bleeding_edge: [no.such-rule]\n").unwrap();
        assert_eq!(config.warnings[0].kind, "unknown_rule");
        assert!(parse(b"bleeding_edge: 3\n").is_err());
    }
}
