//! Project configuration: `.rigor.yml`, else `.rigor.dist.yml` (the first
//! found wins, no merge), or the file `--config` names.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use crate::analysis::{BleedingEdge, Settings};
use crate::diagnostic::Severity;
use crate::rules::{self, Profile};

pub const DISCOVERED_NAMES: &[&str] = &[".rigor.yml", ".rigor.dist.yml"];

/// Keys of the reference configuration this engine does not act on yet.
const KNOWN_UNUSED_KEYS: &[&str] = &[
    "target_ruby",
    "includes",
    "pre_eval",
    "plugins",
    "baseline",
    "cache",
    "parallel",
    "bundler",
    "rbs_collection",
    "dependencies",
    "plugins_io",
    "parameter_inference",
    "effects",
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
    pub exclude: GlobSet,
    pub settings: Settings,
    pub warnings: Vec<ConfigWarning>,
    /// Directories of RBS signatures, resolved against the config file's
    /// directory.
    pub signature_paths: Vec<PathBuf>,
    /// Standard-library signature sets of the rbs gem to load (`json`, `set`).
    pub libraries: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
#[error("{file}: {problem}")]
pub struct ConfigError {
    pub file: String,
    pub problem: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawConfig {
    paths: Option<Vec<String>>,
    exclude: Vec<String>,
    disable: Vec<String>,
    severity_profile: Option<String>,
    severity_overrides: std::collections::BTreeMap<String, String>,
    signature_paths: Vec<String>,
    libraries: Vec<String>,
    bleeding_edge: Option<RawBleedingEdge>,
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
    let fail = |problem: String| ConfigError { file: shown.clone(), problem };
    let text = std::fs::read(&file).map_err(|e| fail(crate::files::describe_io_error(&e)))?;
    parse(&text).map_err(fail).map(|mut config| {
        let base = file.parent().map(Path::to_path_buf).unwrap_or_else(|| cwd.to_path_buf());
        config.signature_paths = config.signature_paths.iter().map(|p| base.join(p)).collect();
        config.file = Some(file);
        config
    })
}

fn parse(text: &[u8]) -> Result<Config, String> {
    let describe = |error: serde_yaml_ng::Error| match error.location() {
        Some(at) => format!("line {}: {}", at.line(), strip_location(&error.to_string())),
        None => error.to_string(),
    };
    let value: serde_yaml_ng::Value = serde_yaml_ng::from_slice(text).map_err(describe)?;
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
                } else if ![
                    "paths",
                    "exclude",
                    "disable",
                    "severity_profile",
                    "severity_overrides",
                    "signature_paths",
                    "libraries",
                    "bleeding_edge",
                ]
                .contains(&key)
                {
                    warnings
                        .push(ConfigWarning { kind: "unknown_key", message: format!("unknown key `{key}` ignored") });
                }
            }
        }
        _ => return Err("the configuration must be a mapping of keys to values".into()),
    }
    let raw: RawConfig = serde_yaml_ng::from_slice(text).map_err(describe)?;

    let profile = match raw.severity_profile.as_deref() {
        None => Profile::default(),
        Some(name) => Profile::parse(name)
            .ok_or_else(|| format!("severity_profile: `{name}` is not one of lenient, balanced, strict"))?,
    };
    let mut overrides = Vec::new();
    for (token, level) in raw.severity_overrides {
        let severity = match level.as_str() {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            "off" => None,
            other => {
                return Err(format!("severity_overrides.{token}: `{other}` is not one of error, warning, info, off"))
            }
        };
        if rules::matching(&token).is_empty() {
            warnings.push(ConfigWarning {
                kind: "unknown_rule",
                message: format!("severity_overrides: `{token}` names no rule"),
            });
        }
        overrides.push((token, severity));
    }
    for token in &raw.disable {
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
    let mut exclude = GlobSetBuilder::new();
    for pattern in &raw.exclude {
        let glob = Glob::new(pattern).map_err(|e| format!("exclude: `{pattern}`: {e}"))?;
        exclude.add(glob);
    }
    Ok(Config {
        file: None,
        paths: raw.paths,
        exclude: exclude.build().map_err(|e| format!("exclude: {e}"))?,
        settings: Settings { profile, disabled: raw.disable, overrides, bleeding_edge, signatures: None },
        warnings,
        signature_paths: raw.signature_paths.into_iter().map(PathBuf::from).collect(),
        libraries: raw.libraries,
    })
}

/// serde_yaml_ng appends " at line L column C"; we print the line first instead.
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
    fn wrong_types_and_bad_yaml_name_the_line() {
        let error = parse(b"paths: [app]\nseverity_profile: [1]\n").unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
        let error = parse(b"paths: [app\n").unwrap_err();
        assert!(error.starts_with("line "), "{error}");
        let error = parse(b"severity_profile: loud\n").unwrap_err();
        assert!(error.contains("loud"), "{error}");
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
