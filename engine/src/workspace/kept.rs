//! Values a command derives from one file's inference alone (`coverage`'s
//! counts per tier), kept per file while what they were derived from
//! stands: the file's bytes and the project index, named by its
//! generation. Every other input (settings, signatures, engine build) is
//! in the key of the whole model, whose change drops the files with their
//! values. Coarser than a report's keys, which list what the report read:
//! a change to the index derives these all again. That is right for a
//! command called far less often than `check`, and it keeps these values
//! out of the read bookkeeping entirely.

use std::any::Any;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::{largest_first, note_figures, Project, Workspace};
use crate::analysis;
use crate::model::sources::{ContentHash, Source};

/// The values of one file, a few kinds at most.
#[derive(Default)]
pub(super) struct KeptValues(Vec<(&'static str, Kept)>);

struct Kept {
    hash: ContentHash,
    generation: u64,
    value: Arc<dyn Any + Send + Sync>,
}

impl KeptValues {
    /// The value of `kind` derived from these bytes against this index.
    fn get<T: Send + Sync + 'static>(&self, kind: &str, hash: ContentHash, generation: u64) -> Option<Arc<T>> {
        let (_, kept) = self.0.iter().find(|(k, _)| *k == kind)?;
        if kept.hash != hash || kept.generation != generation {
            return None;
        }
        kept.value.clone().downcast::<T>().ok()
    }

    fn put<T: Send + Sync + 'static>(&mut self, kind: &'static str, hash: ContentHash, generation: u64, value: Arc<T>) {
        self.0.retain(|(k, _)| *k != kind);
        self.0.push((kind, Kept { hash, generation, value }));
    }
}

impl Workspace {
    /// For each of `targets` that is a file of `project`, what `derive`
    /// gives for its bytes (`None` for the others), under `kind`: taken
    /// from an earlier call while the file's bytes and the index stand,
    /// else derived on the analysis threads (and kept, by a model that
    /// outlives the call). `derive` must read nothing but the file and
    /// the project's inference inputs.
    pub fn per_file<T: Send + Sync + 'static>(
        &mut self,
        project: &mut Project,
        targets: &[String],
        kind: &'static str,
        derive: impl Fn(&Project, &str, &Source) -> T + Sync,
    ) -> Vec<Option<Arc<T>>> {
        let started = Instant::now();
        let generation = project.generation;
        let mut out: Vec<Option<Arc<T>>> = vec![None; targets.len()];
        let mut work: Vec<(usize, &str, Source)> = Vec::new();
        for (at, display) in targets.iter().enumerate() {
            let Some(source) = project.sources.get(display) else { continue };
            let kept = self.files.get(display).and_then(|state| state.kept.get::<T>(kind, source.hash, generation));
            match kept {
                Some(value) => out[at] = Some(value),
                None => work.push((at, display, source.clone())),
            }
        }
        largest_first(&mut work, |(_, _, source)| source.bytes.len());
        let shared: &Project = project;
        let derived: Vec<(usize, Arc<T>)> = analysis::on_analysis_thread(|| {
            work.par_iter()
                .with_max_len(1)
                .map(|(at, display, source)| (*at, Arc::new(derive(shared, display, source))))
                .collect()
        });
        project.figures.reanalysed = derived.len();
        for (at, value) in derived {
            let display = &targets[at];
            if self.outlives_call {
                if let Some(state) = self.files.get_mut(display) {
                    let hash = project.sources[display.as_str()].hash;
                    state.kept.put(kind, hash, generation, value.clone());
                }
            }
            out[at] = Some(value);
        }
        project.figures.phases.analysis = started.elapsed().as_secs_f64() * 1e3;
        project.figures.millis += project.figures.phases.analysis;
        note_figures(&project.figures);
        out
    }
}
