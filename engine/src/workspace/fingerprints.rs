//! What project facts read as under one index: each fact's fingerprint,
//! worked out once and kept by the fact's number (see [`DepTable`]).
//! Every file's every read comes through here when the structure changes
//! (some 200,000 on rubocop), so a numbered read's print costs an array
//! index, not a hash.

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap as HashMap;
use thread_local::ThreadLocal;

use super::deps::{DepId, DepTable, Numbering};
use crate::model::index::{Dep, FileId, SharedIndex};
use crate::rules::project::ProjectFacts;

pub struct Fingerprints {
    index: SharedIndex,
    /// The rules' facts, for `FactName` (absent in the export pass, which
    /// runs no rule).
    facts: Option<Arc<ProjectFacts>>,
    /// By number: shared by the threads, each fact worked out once.
    slots: Slots,
    /// Prints for readers that own part of a fact (their own part is left
    /// out, so each has its own): one map per thread, as few facts are.
    owned: ThreadLocal<RefCell<HashMap<(DepId, FileId), u64>>>,
}

/// A fact's print for readers that own none of it, and which readers own
/// part of it.
#[derive(Default)]
struct Slot {
    shared: OnceLock<u64>,
    touchers: OnceLock<Box<[FileId]>>,
}

/// Slots by number, allocated a chunk at a time as numbers are met (the
/// numbers of a call's new facts are handed out while it runs).
struct Slots {
    chunks: Box<[OnceLock<Box<[Slot]>>]>,
}

const CHUNK: usize = 1 << 10;
/// Numbers past `CHUNK * CHUNKS` (a million facts; the table renumbers
/// long before) are worked out on every read instead.
const CHUNKS: usize = 1 << 10;

impl Slots {
    fn new() -> Slots {
        Slots { chunks: (0..CHUNKS).map(|_| OnceLock::new()).collect() }
    }

    fn get(&self, id: DepId) -> Option<&Slot> {
        let (chunk, at) = (id as usize / CHUNK, id as usize % CHUNK);
        let chunk = self.chunks.get(chunk)?.get_or_init(|| (0..CHUNK).map(|_| Slot::default()).collect());
        Some(&chunk[at])
    }
}

impl Fingerprints {
    pub fn new(index: SharedIndex) -> Fingerprints {
        Fingerprints { index, facts: None, slots: Slots::new(), owned: ThreadLocal::new() }
    }

    pub fn with_facts(mut self, facts: Arc<ProjectFacts>) -> Fingerprints {
        self.facts = Some(facts);
        self
    }

    /// What fact `id` (which is `dep`) reads as for `reader`.
    fn print(&self, id: DepId, dep: &Dep, reader: FileId) -> u64 {
        let Some(slot) = self.slots.get(id) else { return self.compute(dep, reader) };
        let touchers = slot.touchers.get_or_init(|| self.index.touchers(dep).into_boxed_slice());
        if touchers.binary_search(&reader).is_err() {
            return *slot.shared.get_or_init(|| self.compute(dep, reader));
        }
        let owned = self.owned.get_or_default();
        if let Some(known) = owned.borrow().get(&(id, reader)) {
            return *known;
        }
        let value = self.compute(dep, reader);
        owned.borrow_mut().insert((id, reader), value);
        value
    }

    fn compute(&self, dep: &Dep, reader: FileId) -> u64 {
        match dep {
            Dep::FactName(name) => self.facts.as_ref().map_or(0, |facts| facts.name_fingerprint(name)),
            _ => self.index.fingerprint(dep, reader),
        }
    }

    /// What a numbered fact reads as for `reader`.
    pub fn of_number(&self, table: &DepTable, id: DepId, reader: FileId) -> u64 {
        self.print(id, table.dep(id), reader)
    }

    pub fn all_same(&self, table: &DepTable, deps: &[(DepId, u64)], reader: FileId) -> bool {
        deps.iter().all(|(id, value)| self.of_number(table, *id, reader) == *value)
    }

    /// `all_same` for reads recorded against the structure: only what
    /// folding the exports in may change is looked at again.
    pub fn all_same_exports(&self, table: &DepTable, deps: &[(DepId, u64)], reader: FileId) -> bool {
        deps.iter().all(|read| self.stands(table, read, reader))
    }

    /// Does a read recorded against the structure read the same now?
    pub fn stands(&self, table: &DepTable, (id, value): &(DepId, u64), reader: FileId) -> bool {
        !table.dep(*id).reads_exports() || self.of_number(table, *id, reader) == *value
    }

    /// `reads`, numbered, with what each reads as for `reader`, in order.
    pub fn record(&self, numbering: &Numbering<'_>, reads: &[Dep], reader: FileId) -> Vec<(DepId, u64)> {
        reads
            .iter()
            .map(|dep| {
                let id = numbering.id(dep);
                (id, self.print(id, dep, reader))
            })
            .collect()
    }

    /// `reads` numbered `ids` already, with what each reads as for `reader`.
    pub fn record_numbered(&self, ids: &[DepId], reads: &[Dep], reader: FileId) -> Vec<(DepId, u64)> {
        ids.iter().zip(reads).map(|(id, dep)| (*id, self.print(*id, dep, reader))).collect()
    }
}
