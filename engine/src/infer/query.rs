//! Asking about methods after inference, for rules: the same lookup and
//! class relations the inferrer used, over the same index of the file.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::index::{ProgramIndex, Side};
use super::lookup::Callee;
use super::signature::Relation;
use super::{FileTypes, Inferrer};
use crate::rbs::Environment;
use crate::types::Name;

/// What inference learned about one file, with its index kept for queries.
pub struct Inference<'pr, 'e> {
    pub types: FileTypes,
    pub index: ProgramIndex<'pr>,
    env: &'e Environment,
    families: Rc<HashMap<Name, Name>>,
}

impl<'pr, 'e> Inference<'pr, 'e> {
    pub(super) fn new(
        types: FileTypes,
        index: ProgramIndex<'pr>,
        env: &'e Environment,
        families: Rc<HashMap<Name, Name>>,
    ) -> Self {
        Inference { types, index, env, families }
    }

    pub fn env(&self) -> &'e Environment {
        self.env
    }

    /// A fresh inferrer over this file's index: lookups only, no walking.
    fn inferrer(&self) -> Inferrer<'pr, '_> {
        Inferrer::new(self.env, &self.index, self.families.clone(), None)
    }

    /// Where a method name leads for instances (or the class object) of
    /// `class`, exactly as inference resolved calls.
    pub fn lookup(&self, class: &str, side: Side, method: &str) -> Callee<'_> {
        self.inferrer().lookup(class, side, method)
    }

    /// Is `sub` the class or module `sup`, or a descendant of it?
    pub fn relation(&self, sub: &str, sup: &str) -> Relation {
        self.inferrer().relation(sub, sup)
    }

    pub fn is_module(&self, name: &str) -> bool {
        self.inferrer().is_module(name)
    }

    /// Does this class's ancestry leave what the file and signatures show?
    pub fn ancestry_open(&self, class: &str) -> bool {
        self.inferrer().ancestry_open(class)
    }
}
