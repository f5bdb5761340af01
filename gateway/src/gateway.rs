//! What every session shares: the supervised worker and the settings that
//! shape each call.

use std::path::PathBuf;

use crate::argv::SessionDefaults;
use crate::supervisor::SupervisorHandle;

pub struct Gateway {
    pub supervisor: SupervisorHandle,
    /// The working directory of calls.
    pub root: PathBuf,
    /// Values used for arguments a call leaves out (e.g. `config`).
    pub session_defaults: SessionDefaults,
    pub max_line_bytes: usize,
    /// Tools per `tools/list` page.
    pub page_size: usize,
}
