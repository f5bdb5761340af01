//! `--dev`: working on this repository. Watch the engine's sources and the
//! Cargo files, build the engine with cargo, and serve from the freshly
//! built binary in cargo's target directory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{BuildCommand, ReloadConfig};

pub struct DevSetup {
    pub repository: PathBuf,
    pub engine: PathBuf,
    pub reload: ReloadConfig,
}

/// Finds the Rigor checkout (from `start` upwards, else from this
/// executable's location) and the engine binary cargo will build.
pub fn resolve(start: &Path, build_timeout: Duration) -> Result<DevSetup, String> {
    let exe = std::env::current_exe().ok();
    let repository = start
        .ancestors()
        .chain(exe.iter().flat_map(|e| e.ancestors()))
        .find(|dir| is_rigor_checkout(dir))
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            format!("--dev: no Rigor checkout (a Cargo workspace with engine/) at or above {}", start.display())
        })?;
    let release = exe.as_ref().is_some_and(|e| e.components().any(|c| c.as_os_str() == "release"));
    let target = target_directory(&repository)?;
    let profile = if release { "release" } else { "debug" };
    let build = format!("cargo build {}-p rigor-engine --bin rigor", if release { "--release " } else { "" });
    Ok(DevSetup {
        engine: target.join(profile).join("rigor"),
        reload: ReloadConfig {
            // What the engine binary is built from (its tests are not).
            watch: ["engine/src", "engine/data", "engine/build.rs", "engine/Cargo.toml", "Cargo.toml", "Cargo.lock"]
                .iter()
                .map(|relative| repository.join(relative))
                .filter(|path| path.exists())
                .collect(),

            build: Some(BuildCommand { shell: build, directory: repository.clone(), timeout: build_timeout }),
        },
        repository,
    })
}

fn is_rigor_checkout(dir: &Path) -> bool {
    let manifest = std::fs::read_to_string(dir.join("engine/Cargo.toml")).unwrap_or_default();
    dir.join("Cargo.toml").is_file() && manifest.contains("name = \"rigor-engine\"")
}

/// Cargo's target directory for the workspace (honours CARGO_TARGET_DIR).
fn target_directory(repository: &Path) -> Result<PathBuf, String> {
    let output = std::process::Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(repository)
        .output()
        .map_err(|e| format!("--dev: cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!("--dev: cargo metadata failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| format!("--dev: cargo metadata: {e}"))?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .ok_or_else(|| "--dev: cargo metadata has no target_directory".into())
}
