//! Asking about methods after inference, for rules: the same lookup and
//! class relations the inferrer used, over the same index of the file.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::index::{MethodEntry, ProgramIndex, Side};
use super::lookup::Callee;
use super::signature::Relation;
use super::{FileTypes, Inferrer};
use crate::model::index::{Dep, FileExports};
use crate::rbs::Environment;
use crate::types::{Name, Type};

/// What inference learned about one file, with its index kept for queries.
pub struct Inference<'pr, 'e> {
    pub types: FileTypes,
    pub index: ProgramIndex<'pr>,
    env: &'e Environment,
    families: Rc<HashMap<Name, Name>>,
    /// What pass one learned, when it ran against a project index.
    pub pass_one: Option<super::PassOne>,
    /// The export pass's record of each `def`'s walk.
    pub recording: Option<super::replay::Recording>,
    /// How many `def`s the analysis took from the export pass's walk.
    pub replayed: usize,
}

impl<'pr, 'e> Inference<'pr, 'e> {
    pub(super) fn new(
        types: FileTypes,
        index: ProgramIndex<'pr>,
        env: &'e Environment,
        families: Rc<HashMap<Name, Name>>,
    ) -> Self {
        Inference { types, index, env, families, pass_one: None, recording: None, replayed: 0 }
    }

    pub(super) fn with_recording(mut self, recording: Option<super::replay::Recording>) -> Self {
        self.recording = recording;
        self
    }

    pub(super) fn replaying(mut self, replayed: usize) -> Self {
        self.replayed = replayed;
        self
    }

    pub(super) fn with_pass_one(mut self, pass_one: Option<super::PassOne>) -> Self {
        self.pass_one = pass_one;
        self
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

impl Inference<'_, '_> {
    /// What this file's inference found that other files may read: the
    /// return type of each of its methods, its constants' types, and its
    /// writes to instance variables (under every class of the family they
    /// were gathered in).
    pub fn exports(&self) -> FileExports {
        let inferrer = Inferrer::new(self.env, &self.index, self.families.clone(), Some(self.types.ivars.clone()));
        let mut names: Vec<&Name> = self.index.classes.keys().collect();
        names.sort();
        let mut methods = Vec::new();
        let mut yields = Vec::new();
        for name in &names {
            let class = &self.index.classes[*name];
            for side in [Side::Instance, Side::Singleton] {
                let mut entries: Vec<(&String, &MethodEntry)> = class.methods(side).iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                for (method, entry) in entries {
                    let ty = match entry {
                        MethodEntry::Def(id) => {
                            let start = self.index.def(*id).node.location().start() as usize;
                            if let Some(yielded) = self.types.def_yields(start) {
                                yields.push((((*name).clone(), side, method.clone()), yielded.to_vec()));
                            }
                            self.types.def_return(start).cloned().unwrap_or_else(Type::untyped)
                        }
                        MethodEntry::Reader(ivar) => {
                            inferrer.class_ivar_type(name, side, &self.index.ivar_names[*ivar], false)
                        }
                        _ => continue,
                    };
                    methods.push((((*name).clone(), side, method.clone()), ty));
                }
            }
        }
        let mut constants: Vec<(Name, Type)> = self
            .index
            .constants
            .keys()
            .map(|name| (name.clone(), self.types.constants.get(name).cloned().unwrap_or_else(Type::untyped)))
            .collect();
        constants.sort_by(|a, b| a.0.cmp(&b.0));
        let mut ivars = Vec::new();
        for ((family, side, ivar), ty) in &self.types.ivars {
            for name in &names {
                if self.families.get(*name).unwrap_or(name) == family {
                    ivars.push((((*name).clone(), *side, ivar.clone()), ty.clone()));
                }
            }
        }
        ivars.sort_by(|a, b| a.0.cmp(&b.0));
        FileExports { methods, yields, constants, ivars, calls: self.types.calls.clone() }
    }

    /// The instance variables this file's inference saw written in
    /// `class`'s family on `side` (names with their `@`).
    pub fn ivars_written_in<'s>(&'s self, class: &str, side: Side) -> impl Iterator<Item = &'s str> {
        let family: Name = self.families.get(class).cloned().unwrap_or_else(|| Name::from(class));
        self.types.ivars.keys().filter(move |(f, s, _)| *f == family && *s == side).map(|(_, _, name)| name.as_str())
    }

    /// The project facts this analysis read, if it ran in a project.
    pub fn project_reads(&self) -> Vec<Dep> {
        self.index.project.as_ref().map(|p| p.reads()).unwrap_or_default()
    }
}
