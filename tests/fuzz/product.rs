//! The product path each input takes: parse, assess, render.

use super::*;

pub(crate) fn options(format: Format) -> ReportOptions {
    ReportOptions {
        format,
        lang: ReportLang::Both,
        redact: false,
        date: "2026-01-15".into(),
        source_file: None,
    }
}

/// What the command line and the window do with an assessment.
pub(crate) fn render_all(a: &advisor::Assessment, pdf: bool) {
    for lang in Lang::ALL {
        let _ = ramvram::cli::text::assessment(lang, a, None);
        let _ = ramvram::present::hardware_rows(lang, a);
    }
    report::render(a, &options(Format::Markdown)).unwrap();
    report::render(a, &options(Format::Json)).unwrap();
    let mut redacted = options(Format::Markdown);
    redacted.redact = true;
    report::render(&advisor::redacted::redacted(a), &redacted).unwrap();
    if pdf {
        report::render(a, &options(Format::Pdf)).unwrap();
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Profile,
    Scenario,
    Slurm,
    Dmidecode,
    Settings,
    Trace,
    /// Traces with many GPUs per sample, around the cap, out of order (issue 25).
    TraceManyGpus,
    /// Slurm inventories with big GRES, around the GPU caps (issue 25).
    SlurmBigGres,
    /// Model headers: safetensors, GGUF, `config.json`, folders (issue 25).
    ModelFiles,
    /// Dataset folders: names and first bytes (issue 25).
    Dataset,
}

/// The machine that scenarios, modules and settings are tried on (read once).
pub(crate) fn base_machine() -> &'static ramvram::profile::MachineProfile {
    static BASE: std::sync::OnceLock<ramvram::profile::MachineProfile> = std::sync::OnceLock::new();
    BASE.get_or_init(|| common::fixture("dgx-a100"))
}

/// Runs one input through the product path; whether its parser accepted it (to show the
/// fuzzer reaches past the parsers).
pub(crate) fn run_one(kind: Kind, text: &str, pdf: bool) -> bool {
    let path = Path::new("fuzz.json");
    match kind {
        Kind::Profile => {
            let Ok(loaded) = ramvram::profile::parse_profile(text, path) else {
                return false;
            };
            render_all(
                &advisor::assess(&loaded.profile, &ramvram::advisor::Scenario::NONE),
                pdf,
            );
        }
        Kind::Scenario => {
            let Ok((s, _)) = ramvram::inputs::scenario::parse_scenario(text, path) else {
                return false;
            };
            let inputs = Scenario {
                training: s.training,
                workload: s.workload,
                inference: s.inference,
                ..Scenario::NONE
            };
            render_all(&advisor::assess(base_machine(), &inputs), pdf);
        }
        Kind::Slurm => {
            let Ok(profiles) = ramvram::import::slurm::parse(text, path) else {
                return false;
            };
            let inputs = profiles
                .into_iter()
                .map(|p| {
                    let label = p.host.hostname.clone().unwrap_or_default();
                    (
                        label,
                        advisor::fleet::Origin::Slurm("f".into()),
                        p,
                        Vec::new(),
                    )
                })
                .collect();
            let machines = advisor::fleet::assess_fleet(inputs);
            for m in &machines {
                let _ = ramvram::present::fleet::row(Lang::Zh, m);
            }
            report::render_fleet(&machines, &[], &options(Format::Markdown)).unwrap();
            if pdf {
                report::render_fleet(&machines, &[], &options(Format::Pdf)).unwrap();
            }
        }
        Kind::Dmidecode => {
            let dimms = ramvram::probe::dimm::parse_dmidecode(text);
            if dimms.is_empty() {
                return false;
            }
            let mut p = base_machine().clone();
            ramvram::probe::dimm::apply_dimms(&mut p.memory, dimms);
            if ramvram::profile::limits::check(&mut p).is_ok() {
                render_all(&advisor::assess(&p, &ramvram::advisor::Scenario::NONE), pdf);
            }
        }
        Kind::Trace | Kind::TraceManyGpus => return run_trace(text, pdf),
        Kind::SlurmBigGres => return run_big_slurm(text),
        Kind::ModelFiles => return run_model(text),
        Kind::Dataset => return run_dataset(text),
        Kind::Settings => {
            let Ok(s) = serde_json::from_str::<ramvram::ui::settings::Settings>(text) else {
                return false;
            };
            if let Some(w) = s.workload.filter(|w| w.validate().is_ok()) {
                let inputs = Scenario {
                    training: None,
                    workload: Some(w),
                    inference: None,
                    ..Scenario::NONE
                };
                render_all(&advisor::assess(base_machine(), &inputs), false);
            }
        }
    }
    true
}
