//! The project facts cached answers read, numbered. A cached answer keeps
//! numbers; a check after a change looks each fact up by number instead of
//! hashing and comparing it again. (rubocop's files keep about 200,000
//! reads between them, of some 20,000 different facts, and every one is
//! looked at again whenever the project's structure changes.)

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};

use crate::model::index::Dep;

/// A fact's number in a [`DepTable`].
pub type DepId = u32;

/// How many facts a table holds before it is first renumbered.
const FIRST_RENUMBERING: usize = 1 << 16;

pub struct DepTable {
    /// Each fact once, at its number.
    deps: Vec<Dep>,
    /// The numbers, found by their fact's hash: the facts themselves are
    /// in `deps` alone (not copied into a map's keys as well).
    numbers: HashTable<DepId>,
    /// Past this many facts, the table is built again from the live
    /// answers' reads: facts nobody reads any more are dropped.
    limit: usize,
    /// How many times it was.
    renumberings: usize,
}

impl Default for DepTable {
    fn default() -> Self {
        DepTable { numbers: HashTable::new(), deps: Vec::new(), limit: FIRST_RENUMBERING, renumberings: 0 }
    }
}

impl DepTable {
    pub fn dep(&self, id: DepId) -> &Dep {
        &self.deps[id as usize]
    }

    pub fn len(&self) -> usize {
        self.deps.len()
    }

    /// The number of a fact whose hash is `hash`, if the table has it.
    fn find(&self, hash: u64, dep: &Dep) -> Option<DepId> {
        self.numbers.find(hash, |id| self.deps[*id as usize] == *dep).copied()
    }

    /// Adds a fact the table lacks, at the next number.
    fn push(&mut self, hash: u64, dep: Dep) -> DepId {
        let id = DepId::try_from(self.deps.len()).expect("fewer than 2^32 facts");
        let deps = &self.deps;
        self.numbers.insert_unique(hash, id, |id| hash_of(&deps[*id as usize]));
        self.deps.push(dep);
        id
    }

    fn number(&mut self, dep: Dep) -> DepId {
        let hash = hash_of(&dep);
        self.find(hash, &dep).unwrap_or_else(|| self.push(hash, dep))
    }

    /// Forgets every fact (when every answer that read one goes).
    pub fn clear(&mut self) {
        self.numbers.clear();
        self.deps.clear();
    }

    /// The facts a [`Numbering`] met that the table lacked, numbered on
    /// from its end as the numbering said.
    pub fn extend(&mut self, new: NewFacts) {
        debug_assert_eq!(new.from as usize, self.deps.len(), "numbered on from the table's end");
        self.deps.reserve(new.facts.len());
        let deps = &self.deps;
        self.numbers.reserve(new.facts.len(), |id| hash_of(&deps[*id as usize]));
        for slot in new.facts {
            // A numbering hands out numbers only to facts the table lacks,
            // each number once.
            let (dep, hash) = slot.expect("numbers handed out in a row");
            debug_assert!(self.find(hash, &dep).is_none(), "a new fact is new");
            self.push(hash, dep);
        }
    }

    /// Reads with their prints, numbered.
    pub fn numbered(&mut self, reads: Vec<(Dep, u64)>) -> Vec<(DepId, u64)> {
        reads.into_iter().map(|(dep, print)| (self.number(dep), print)).collect()
    }

    /// Numbered reads as the facts they are (to store, or to hand on).
    pub fn named(&self, reads: &[(DepId, u64)]) -> Vec<(Dep, u64)> {
        reads.iter().map(|(id, print)| (self.dep(*id).clone(), *print)).collect()
    }

    /// Does the table hold so many facts that it should be built again?
    pub fn wants_renumbering(&self) -> bool {
        self.deps.len() > self.limit
    }

    /// A table built again whenever it has grown at all (for tests).
    #[cfg(test)]
    pub fn renumbering_often() -> DepTable {
        DepTable { limit: 0, ..DepTable::default() }
    }

    #[cfg(test)]
    pub fn renumberings(&self) -> usize {
        self.renumberings
    }

    /// Builds the table again from the reads still kept (each list given
    /// once, renumbered in place), so that a worker alive for days holds
    /// only the facts its answers read.
    pub fn renumber<'a>(&mut self, kept: impl IntoIterator<Item = &'a mut Vec<(DepId, u64)>>) {
        let (limit, renumberings) = (self.limit, self.renumberings + 1);
        let old = std::mem::take(self);
        let mut new_ids: Vec<Option<DepId>> = vec![None; old.deps.len()];
        let mut deps = old.deps.into_iter().map(Some).collect::<Vec<_>>();
        for reads in kept {
            for (id, _) in reads.iter_mut() {
                let slot = &mut new_ids[*id as usize];
                *id = match slot {
                    Some(new) => *new,
                    None => {
                        let dep = deps[*id as usize].take().expect("each fact moved once");
                        let new = self.number(dep);
                        *slot = Some(new);
                        new
                    }
                };
            }
        }
        self.limit = if limit == 0 { 0 } else { FIRST_RENUMBERING.max(2 * self.deps.len()) };
        self.renumberings = renumberings;
    }
}

/// Numbers for the facts the analysis threads record, handed out while
/// they run: the table's own, and from its end on for facts it lacks
/// (added to it after, by [`DepTable::extend`]). Each read is hashed
/// once, on the thread that made it.
pub struct Numbering<'t> {
    table: &'t DepTable,
    /// New facts, in shards so that the threads seldom wait on each other.
    new: [Mutex<HashMap<Dep, (DepId, u64)>>; SHARDS],
    next: AtomicU32,
}

const SHARDS: usize = 16;

/// The facts a numbering met that its table lacked, with their hashes, at
/// their numbers from `from` on.
pub struct NewFacts {
    from: DepId,
    facts: Vec<Option<(Dep, u64)>>,
}

fn hash_of(dep: &Dep) -> u64 {
    FxBuildHasher.hash_one(dep)
}

impl<'t> Numbering<'t> {
    pub fn new(table: &'t DepTable) -> Numbering<'t> {
        let next = DepId::try_from(table.len()).expect("fewer than 2^32 facts");
        Numbering { table, new: Default::default(), next: AtomicU32::new(next) }
    }

    /// The facts met that the table lacks, for [`DepTable::extend`].
    pub fn into_new(self) -> NewFacts {
        let from = DepId::try_from(self.table.len()).expect("fewer than 2^32 facts");
        let count = self.next.into_inner() - from;
        // The numbers handed out are the ones from `from` on, each once:
        // each fact goes to its place, no sort needed.
        let mut facts: Vec<Option<(Dep, u64)>> = Vec::with_capacity(count as usize);
        facts.resize_with(count as usize, || None);
        for shard in self.new {
            for (dep, (id, hash)) in shard.into_inner().unwrap_or_else(|p| p.into_inner()) {
                facts[(id - from) as usize] = Some((dep, hash));
            }
        }
        NewFacts { from, facts }
    }

    pub fn id(&self, dep: &Dep) -> DepId {
        let hash = hash_of(dep);
        if let Some(id) = self.table.find(hash, dep) {
            return id;
        }
        let mut new = self.new[hash as usize % SHARDS].lock().unwrap_or_else(|p| p.into_inner());
        if let Some((id, _)) = new.get(dep) {
            return *id;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        assert!(id < DepId::MAX, "fewer than 2^32 facts");
        new.insert(dep.clone(), (id, hash));
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Name;

    #[test]
    fn a_fact_keeps_its_number_and_renumbering_keeps_only_what_is_read() {
        let mut table = DepTable::default();
        let class = |name: &str| Dep::Class(Name::from(name));
        let mut a = table.numbered(vec![(class("A"), 1), (class("B"), 2)]);
        let mut b = table.numbered(vec![(class("B"), 2), (class("C"), 3)]);
        assert_eq!(a[1].0, b[0].0, "one number for one fact");
        assert_eq!(table.len(), 3);
        assert_eq!(table.named(&a), vec![(class("A"), 1), (class("B"), 2)]);
        // `A` is read no more.
        a.remove(0);
        table.renumber([&mut a, &mut b]);
        assert_eq!(table.len(), 2);
        assert_eq!(table.named(&a), vec![(class("B"), 2)]);
        assert_eq!(table.named(&b), vec![(class("B"), 2), (class("C"), 3)]);
        // New facts number on from there.
        let c = table.numbered(vec![(class("A"), 4)]);
        assert_eq!(c[0].0, 2);
    }

    #[test]
    fn a_numbering_hands_out_the_tables_numbers_and_new_ones_after_them() {
        let class = |name: &str| Dep::Class(Name::from(name));
        let mut table = DepTable::default();
        table.numbered(vec![(class("A"), 1), (class("B"), 2)]);
        let numbering = Numbering::new(&table);
        let ids: Vec<DepId> = std::thread::scope(|scope| {
            let numbering = &numbering;
            let threads: Vec<_> =
                ["B", "C", "D", "C"].into_iter().map(|name| scope.spawn(move || numbering.id(&class(name)))).collect();
            threads.into_iter().map(|thread| thread.join().expect("no panic")).collect()
        });
        assert_eq!(ids[0], 1, "a fact the table holds keeps its number");
        assert_eq!(ids[1], ids[3], "one number for one new fact, whichever thread met it");
        assert!(ids[1] >= 2 && ids[2] >= 2 && ids[1] != ids[2]);
        let new = numbering.into_new();
        table.extend(new);
        assert_eq!(table.len(), 4);
        assert_eq!(*table.dep(ids[1]), class("C"));
        assert_eq!(*table.dep(ids[2]), class("D"));
        assert_eq!(table.numbered(vec![(class("D"), 0)])[0].0, ids[2]);
    }
}
