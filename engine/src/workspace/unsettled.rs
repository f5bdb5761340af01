//! The reads a kept model keys its answers by, numbered and printed after
//! the answer rather than before it. A full build lists some 200,000 reads
//! on rubocop; numbering and printing them all took about a tenth of a
//! worker's first call (and of every call after a `sig/` or configuration
//! edit).
//! The call that made them needs only what folding the exports in may
//! change, which it records at once; all of them are needed only when a
//! later call (or the disk cache) asks whether an answer still stands. So
//! the worker settles them once it has answered, and a workspace settles
//! what is left before it looks at any earlier answer (see
//! [`super::Workspace::settle`]). An answer whose reads are not settled is
//! never taken as standing: at worst it is derived again.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use super::deps::{DepId, Numbering};
use super::fingerprints::Fingerprints;
use crate::model::index::{Dep, FileId};
use crate::model::sources::ContentHash;

/// One answer's reads, to number and print under the index they were made
/// against.
pub(super) struct Unsettled {
    pub display: String,
    /// The content the answer was derived from (it is settled only while
    /// the file's answer is still that one).
    pub hash: ContentHash,
    pub reader: FileId,
    pub memo: Arc<Fingerprints>,
    pub reads: Reads,
}

pub(super) enum Reads {
    /// An export pass's, against the structure.
    Exports(Arc<[Dep]>),
    /// An analysis's, with what the export pass read for the part of it
    /// the analysis took (printed under the folded index like the rest),
    /// and the print of the rules' project facts as a whole.
    Report { reads: Vec<Dep>, taken: Option<Arc<[Dep]>>, facts: u64 },
}

/// Numbers and prints each answer's reads, in order. An export pass's
/// reads are numbered once, for its own answer and for the report that
/// took its part (the same list, printed under the folded index).
pub(super) fn settle_all(unsettled: &[Unsettled], numbering: &Numbering<'_>) -> Vec<Vec<(DepId, u64)>> {
    // Each export pass's list, numbered (a report's: nothing yet).
    let numbered: Vec<Vec<DepId>> = unsettled
        .par_iter()
        .map(|one| match &one.reads {
            Reads::Exports(reads) => reads.iter().map(|dep| numbering.id(dep)).collect(),
            Reads::Report { .. } => Vec::new(),
        })
        .collect();
    // By the list's address: a report took the very list its export pass kept.
    let by_list: HashMap<usize, &[DepId]> = unsettled
        .iter()
        .zip(&numbered)
        .filter_map(|(one, ids)| match &one.reads {
            Reads::Exports(reads) => Some((reads.as_ptr() as usize, ids.as_slice())),
            Reads::Report { .. } => None,
        })
        .collect();
    unsettled
        .par_iter()
        .zip(&numbered)
        .map(|(one, ids)| {
            let (memo, reader) = (&one.memo, one.reader);
            let mut deps = match &one.reads {
                Reads::Exports(reads) => memo.record_numbered(ids, reads, reader),
                Reads::Report { reads, taken, .. } => {
                    let mut deps = memo.record(numbering, reads, reader);
                    if let Some(taken) = taken {
                        deps.extend(match by_list.get(&(taken.as_ptr() as usize)) {
                            Some(ids) => {
                                debug_assert_eq!(ids.len(), taken.len(), "the same list");
                                memo.record_numbered(ids, taken, reader)
                            }
                            None => memo.record(numbering, taken, reader),
                        });
                    }
                    deps
                }
            };
            // (Listed in no order, maybe with repeats.)
            deps.sort_unstable_by_key(|(id, _)| *id);
            deps.dedup_by_key(|(id, _)| *id);
            if let Reads::Report { facts, .. } = &one.reads {
                // The rules' facts as a whole come first (a check looks at
                // them before the rest).
                let facts_read = (numbering.id(&Dep::Facts), *facts);
                deps.retain(|(id, _)| *id != facts_read.0);
                deps.insert(0, facts_read);
            }
            deps
        })
        .collect()
}

impl Unsettled {
    pub fn is_report(&self) -> bool {
        matches!(self.reads, Reads::Report { .. })
    }
}
