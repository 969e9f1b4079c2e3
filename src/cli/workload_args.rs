//! `advise` flags for the workload simulator.

use clap::Args;

use super::knob_args::WorkloadKnobs;
use crate::advisor::knobs::{self, KnobId, KnobId as K, KnobValue};
use crate::advisor::workload::{InertInput, Workload, inert_inputs, knob_values, presets};
use crate::i18n::{Lang, Msg, trf};
use crate::inputs::dataset::DatasetScan;
use crate::parse::ValueError;
use crate::present::errors;
use crate::profile::Problem;

/// Flags describing a data-loading workload. Any of them turns the simulator on, starting from
/// the preset `--workload` names, else the `generic` one; the values taken from it are printed.
/// A flag that can't change the result (given the others) is an error naming it.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Workload simulator (data loading)")]
pub struct WorkloadArgs {
    /// Preset to start from: imagenet-resnet50, seed-4k-medical, t2i-1024-multiscale, coco-detector,
    /// llm-token-shards, generic (the default when other workload flags are given).
    #[arg(long = "workload", value_parser = parse_workload_preset)]
    pub workload_preset: Option<String>,
    /// The dataset's folder, scanned by names, sizes and a sample of image headers (links not
    /// followed): sets the dataset size, samples, image size, stored format and layout that
    /// other flags don't.
    #[arg(long, value_parser = parse_dataset)]
    pub dataset: Option<DatasetScan>,
    /// The knobs' flags (`--num-workers`, `--dataset-size`, …), one per row of the knob table
    /// ([`crate::advisor::knobs::WORKLOAD`]).
    #[command(flatten)]
    pub knobs: WorkloadKnobs,
}

/// A workload built from flags, and what came from its base preset.
#[derive(Clone, Debug, PartialEq)]
pub struct FromFlags {
    /// The workload.
    pub workload: Workload,
    /// One line saying which preset it started from and which values it took from it.
    pub note: String,
}

fn parse_dataset(s: &str) -> Result<DatasetScan, ValueError> {
    crate::inputs::dataset::scan(std::path::Path::new(s)).map_err(|p| {
        ValueError::new(Msg::ModelErrorInFile, &crate::sanitize::path(s))
            .with_reason(crate::present::model::io_reason(&p))
    })
}

fn parse_workload_preset(s: &str) -> Result<String, ValueError> {
    match presets::preset(s) {
        Some(_) => Ok(s.to_string()),
        None => {
            let ids = presets::presets()
                .iter()
                .map(|(id, _)| id.to_string())
                .collect();
            Err(ValueError::new(Msg::ValueUnknownWorkload, s).with_list("ids", ids))
        }
    }
}

impl WorkloadArgs {
    /// The workload these flags describe, `None` when no workload flag is given. It starts from
    /// `--workload`'s preset, else [`presets::GENERIC`].
    ///
    /// # Errors
    /// Values that can't be right (0 workers is allowed; 0 batch size, 0 samples are not), and
    /// a flag that can't change the result given the others.
    pub fn workload(&self, lang: Lang) -> Result<Option<FromFlags>, String> {
        let given = &self.knobs.0;
        if given.0.is_empty() && self.dataset.is_none() && self.workload_preset.is_none() {
            return Ok(None);
        }
        let base_id = self
            .workload_preset
            .clone()
            .unwrap_or_else(|| presets::GENERIC.to_string());
        let mut w = presets::preset(&base_id).expect("checked by clap or built in");
        // Values that can't be right whatever the others: 0 where 0 is refused, a rate of 0.
        for (id, v) in &given.0 {
            let k = knobs::knob(*id);
            let problem = match (k.range, *v) {
                (Some(r), KnobValue::Whole(0)) if r.zero_refused => Some(Problem::Zero),
                (Some(r), KnobValue::Float(f)) if r.above_min && !(f.is_finite() && f > r.min) => {
                    Some(Problem::NotPositive {
                        value: f.to_string(),
                    })
                }
                _ => None,
            };
            if let Some(p) = problem {
                return Err(errors::flag(lang, k.flag, &p));
            }
        }
        let scan = self.dataset.as_ref().map(DatasetScan::workload_values);
        // A value of the scan as its knob's value.
        let as_knob = |id: KnobId, set: &dyn Fn(&mut Workload)| {
            let mut t = w.clone();
            set(&mut t);
            knob_values::get(&t, id)
        };
        // What the dataset's folder fills in, by the knob it stands for.
        let filled: Vec<(KnobId, KnobValue)> = scan.as_ref().map_or_else(Vec::new, |s| {
            [
                (K::DatasetSize, s.dataset_size.map(KnobValue::Whole)),
                (K::Samples, s.samples.map(KnobValue::Whole)),
                (
                    K::ImageSize,
                    s.image_size.map(|(w, h)| KnobValue::Pair(w, h)),
                ),
                (
                    K::Stored,
                    s.stored.and_then(|x| as_knob(K::Stored, &|t| t.stored = x)),
                ),
                (
                    K::DataFormat,
                    s.format
                        .and_then(|x| as_knob(K::DataFormat, &|t| t.format = x)),
                ),
            ]
            .into_iter()
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .collect()
        });
        // A value from the folder outside its knob's range is noted and not used: the error
        // would name a flag the user never typed.
        let (filled, skipped): (Vec<_>, Vec<_>) = filled
            .into_iter()
            .partition(|(k, v)| knobs::check_range(knobs::knob(*k), *v).is_ok());
        let skipped: Vec<String> = skipped
            .iter()
            .filter_map(|(k, v)| {
                let (_, problem) = knobs::check_range(knobs::knob(*k), *v).err()?;
                let what = match knobs::knob(*k).label {
                    Some(knobs::Label::Text(m) | knobs::Label::Sides(m, _)) => {
                        crate::i18n::tr(lang, m).to_string()
                    }
                    _ => knobs::knob(*k).fields.first().copied().unwrap_or("").into(),
                };
                Some(trf(
                    lang,
                    Msg::DatasetValueSkipped,
                    &[
                        ("what", &what),
                        ("problem", &errors::problem(lang, &problem)),
                    ],
                ))
            })
            .collect();
        let typed_or_filled = |id: KnobId| {
            given
                .get(id)
                .or_else(|| filled.iter().find(|(k, _)| *k == id).map(|(_, v)| *v))
        };
        let dataset_size = match typed_or_filled(K::DatasetSize) {
            Some(KnobValue::Whole(d)) => Some(d),
            _ => None,
        };
        if let Some(d) = dataset_size {
            w.set_dataset_size(d);
        }
        if let Some(KnobValue::Whole(n)) = typed_or_filled(K::Samples) {
            // Without --dataset-size the base's files keep their size.
            let file = w.file_bytes();
            w.samples = n;
            if dataset_size.is_none() {
                w.dataset_bytes = file.saturating_mul(n).max(1);
            }
        }
        if let Some(KnobValue::Pair(width, height)) = typed_or_filled(K::ImageSize) {
            if dataset_size.is_none() {
                w.set_image_size(width, height);
            } else {
                (w.width, w.height) = (width, height);
            }
        }
        let size_knobs = [K::DatasetSize, K::Samples, K::ImageSize];
        for (id, v) in filled.iter().chain(&given.0) {
            if !size_knobs.contains(id) {
                knob_values::set(&mut w, *id, *v);
            }
        }
        w.validate().map_err(|(field, problem)| {
            let flag = knobs::of_field(knobs::WORKLOAD, field).map_or("workload", |k| k.flag);
            errors::flag(lang, flag, &problem)
        })?;
        let inert = inert_inputs(&w);
        let given_inert: Vec<_> = inert.iter().filter(|(i, _)| given.has(i.knob())).collect();
        let words = |msg, (input, reason): &(InertInput, crate::advisor::workload::Inert)| {
            trf(
                lang,
                msg,
                &[
                    ("flag", knobs::flag(input.knob())),
                    (
                        "reason",
                        crate::present::workload::inert_reason(lang, *reason),
                    ),
                ],
            )
        };
        // PyTorch's DataLoader itself refuses `prefetch_factor` and `persistent_workers` with
        // `num_workers=0` (ValueError): those stay errors. Any other flag that can't change the
        // result is a note — users paste their real DataLoader settings.
        if let Some(refused) = given_inert.iter().find(|(i, _)| {
            matches!(
                i,
                InertInput::PrefetchFactor | InertInput::PersistentWorkers
            ) && w.num_workers == 0
        }) {
            return Err(words(Msg::DataloaderCliInert, refused));
        }
        let inert_notes: Vec<String> = given_inert
            .iter()
            .map(|x| words(Msg::AdviceInertNote, x))
            .collect();
        let taken: Vec<String> = knobs::WORKLOAD
            .iter()
            .filter(|k| k.in_base_note && !given.has(k.id))
            .filter(|k| !filled.iter().any(|(f, _)| *f == k.id))
            .filter(|k| !inert.iter().any(|(i, _)| i.knob() == k.id))
            .filter_map(|k| {
                let v = knob_values::get(&w, k.id)?;
                Some(format!("`--{} {}`", k.flag, knobs::note_text(k, v)))
            })
            .collect();
        let name = crate::present::workload::preset_name(lang, &base_id);
        let note = if taken.is_empty() {
            trf(
                lang,
                Msg::DataloaderCliBaseNone,
                &[("preset", &base_id), ("name", name)],
            )
        } else {
            trf(
                lang,
                Msg::DataloaderCliBase,
                &[
                    ("preset", &base_id),
                    ("name", name),
                    ("fields", &crate::present::join(lang, &taken)),
                ],
            )
        };
        let note = std::iter::once(note)
            .chain(inert_notes)
            .collect::<Vec<_>>()
            .join("\nramvram: ");
        let note = match &self.dataset {
            Some(s) => {
                let typed: Vec<&str> = filled
                    .iter()
                    .filter(|(k, _)| given.has(*k))
                    .map(|(k, _)| knobs::flag(*k))
                    .collect();
                let scanned = std::iter::once(crate::present::dataset::scan_note(lang, s, &typed))
                    .chain(skipped)
                    .collect::<Vec<_>>()
                    .join("\nramvram: ");
                format!("{scanned}\nramvram: {note}")
            }
            None => note,
        };
        Ok(Some(FromFlags { workload: w, note }))
    }
}
