//! Words for the ranked recommendations: a title with the values the change sets, and the
//! result of the model re-run with it. Shared by the window, the terminal and the reports.

use crate::advisor::recommend::{AdviceId, Limit, Outcome, RecKind, Recommendation};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

use super::advice_text::{cost_msg, title_msg};

/// What a change costs, in its own words, starting with its class ([`GivesUp`]): "slower:
/// every step moves the optimizer states over PCIe". The message is the one its advice id's row
/// names ([`AdviceId::cost_key`]).
pub fn cost(lang: Lang, r: &Recommendation) -> String {
    cost_msg(r.id)
        .map(|m| tr(lang, m).to_string())
        .unwrap_or_default()
}

/// The arguments that apply a change, as the line a printed view puts under it ("Apply: add
/// `--num-workers 4` to the `ramvram advise` command"); `None` when no flag says it (buying
/// modules, another instance).
pub fn apply_line(lang: Lang, r: &Recommendation) -> Option<String> {
    (!r.apply.is_empty()).then(|| trf(lang, Msg::AdviceApply, &[("args", &apply_spans(r))]))
}

/// The arguments as code spans, one per flag with its value, so a line breaks between flags,
/// never inside one: "`--num-workers 4` `--shm-size 1GiB`".
fn apply_spans(r: &Recommendation) -> String {
    let mut spans: Vec<String> = Vec::new();
    for arg in &r.apply {
        match spans.last_mut() {
            Some(last) if !arg.starts_with("--") => {
                last.pop();
                last.push(' ');
                last.push_str(arg);
                last.push('`');
            }
            _ => spans.push(format!("`{arg}`")),
        }
    }
    spans.join(" ")
}

/// A limit's name ("VRAM per GPU", "/dev/shm").
pub fn limit_name(lang: Lang, l: Limit) -> &'static str {
    tr(
        lang,
        match l {
            Limit::Vram => Msg::AdviceLimitVram,
            Limit::Ram => Msg::AdviceLimitRam,
            Limit::Shm => Msg::AdviceLimitShm,
            Limit::Nvme => Msg::AdviceLimitNvme,
        },
    )
}

/// "headroom 3.1 GiB (RAM)" or "short by 1.2 GiB (VRAM per GPU)"; `None` when no limit was
/// checked.
pub fn headroom(lang: Lang, o: &Outcome) -> Option<String> {
    let (h, l) = (o.headroom_bytes?, o.tightest?);
    let limit = limit_name(lang, l);
    Some(if h >= 0 {
        trf(
            lang,
            Msg::AdviceHeadroom,
            &[
                ("headroom", &format::size(h.unsigned_abs())),
                ("limit", limit),
            ],
        )
    } else {
        trf(
            lang,
            Msg::AdviceShortBy,
            &[("short", &format::size(h.unsigned_abs())), ("limit", limit)],
        )
    })
}

/// "setting" / "改设置".
pub fn kind(lang: Lang, k: RecKind) -> &'static str {
    tr(
        lang,
        match k {
            RecKind::Setting => Msg::RecommendationKindSetting,
            RecKind::Software => Msg::RecommendationKindSoftware,
            RecKind::Os => Msg::RecommendationKindOs,
            RecKind::Hardware => Msg::RecommendationKindHardware,
            RecKind::Cloud => Msg::RecommendationKindCloud,
        },
    )
}

/// The title with the values the change sets: "Set num_workers=4". A technique that needs a
/// loading setting too says so: "Fine-tune with QLoRA … (loading: low_cpu_mem_usage)"; a pair
/// names its second change: "…; together with: Turn on activation checkpointing".
pub fn title(lang: Lang, r: &Recommendation) -> String {
    let mut t = one_title(lang, r);
    for other in &r.also {
        let changes = r
            .changes
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix("also.")?.to_string(), v.clone())))
            .collect();
        let part = Recommendation {
            id: *other,
            changes,
            also: Vec::new(),
            ..r.clone()
        };
        t = trf(
            lang,
            Msg::AdviceTogetherWith,
            &[("first", &t), ("second", &one_title(lang, &part))],
        );
    }
    t
}

fn one_title(lang: Lang, r: &Recommendation) -> String {
    use AdviceId as R;
    // Add RAM where the modules can't be named: the size to reach.
    // QLoRA from a full fine-tune replaces training all parameters; from LoRA it quantises the
    // base (`advisor::training::advice` records which).
    let (from_full, from_lora) = (
        r.changes.contains_key("finetune"),
        r.changes.contains_key("base"),
    );
    let msg = match r.id {
        R::AddRam if !r.changes.contains_key("modules") => Msg::AdviceAddRamTitleSize,
        R::ShardedQlora if from_full => Msg::AdviceShardedQloraTitleFromFull,
        R::ShardedQlora if from_lora => Msg::AdviceShardedQloraTitleFromLora,
        R::Qlora if from_lora => Msg::AdviceQloraTitleFromLora,
        R::DropOffload if !r.changes.contains_key("offload_optimizer") => {
            Msg::AdviceDropOffloadTitleParam
        }
        R::FitLoaderSettings if r.changes.contains_key("pin_memory") => {
            Msg::AdviceFitLoaderSettingsTitleUnpinned
        }
        id => title_msg(id),
    };
    let mut t = match (r.id, r.changes.get("shard")) {
        // A swap file or page file names the one-time peak it takes.
        (R::AddSwap | R::GrowPageFile, _) => {
            let mut changes = r.changes.clone();
            changes.insert(
                "phase".into(),
                crate::advisor::Quantity::Text(one_time_phase(lang, &r.result)),
            );
            super::fill_values(lang, msg, &changes)
        }
        // A checkpoint shard's size as `save_pretrained`'s `max_shard_size` writes it: whole
        // decimal GB ("2 GB").
        (R::ReshardCheckpoint, Some(crate::advisor::Quantity::Bytes(b))) => {
            let mut changes = r.changes.clone();
            let gb = format!("{} GB", b / 1_000_000_000);
            changes.insert("shard".into(), crate::advisor::Quantity::Text(gb));
            super::fill_values(lang, msg, &changes)
        }
        _ => super::fill_values(lang, msg, &r.changes),
    };
    if r.changes.contains_key("windows_ram_needed") {
        t.push_str(&super::fill_values(
            lang,
            Msg::RecommendationWithWindowsRam,
            &r.changes,
        ));
    }
    if r.changes.contains_key("samples_per_s") {
        t.push_str(&super::fill_values(
            lang,
            Msg::RecommendationWithSamples,
            &r.changes,
        ));
    }
    let loading_id = matches!(r.id, R::LoadOnRank0 | R::MetaDeviceInit | R::LowCpuMemUsage);
    if let (false, Some(crate::advisor::Quantity::Text(m))) = (loading_id, r.changes.get("loading"))
    {
        t.push_str(&trf(lang, Msg::RecommendationWithLoading, &[("method", m)]));
    }
    // A change that fits once a swap file takes its one-time peak's last GiB says so, and
    // which peak.
    if !matches!(r.id, R::AddSwap | R::GrowPageFile) {
        let bytes = |key| match r.changes.get(key) {
            Some(crate::advisor::Quantity::Bytes(b)) => Some(format::gib(*b)),
            _ => None,
        };
        let phase = one_time_phase(lang, &r.result);
        let with =
            |msg, key, value: &str| trf(lang, msg, &[(key, value), ("phase", phase.as_str())]);
        if let Some(swap) = bytes("swap") {
            t.push_str(&with(Msg::RecommendationWithSwap, "swap", &swap));
        } else if let Some(used) = bytes("swap_used") {
            t.push_str(&with(
                Msg::RecommendationWithConfiguredSwap,
                "swap_used",
                &used,
            ));
        } else if let Some(add) = bytes("page_file") {
            t.push_str(&with(Msg::RecommendationWithPageFile, "swap", &add));
        } else if let Some(used) = bytes("page_file_used") {
            t.push_str(&with(
                Msg::RecommendationWithConfiguredPageFile,
                "swap_used",
                &used,
            ));
        }
    }
    t
}

/// The one-time phase a swap file takes for a change whose result is `o`: the phase that sets
/// its CPU peak, by name; "loading, a checkpoint save or a resume" when the result names none
/// or names a steady phase (a pool's page file sized for every process).
pub fn one_time_phase(lang: Lang, o: &Outcome) -> String {
    use crate::advisor::training::PhaseId;
    match o.peak_phase {
        Some(p @ (PhaseId::Loading | PhaseId::CheckpointSave | PhaseId::Resume)) => {
            super::phase::phase_name(lang, p).to_string()
        }
        _ => tr(lang, Msg::RecommendationOneTimeAny).to_string(),
    }
}

/// "fits" / "still does not fit" / "can't tell".
pub fn fits_word(lang: Lang, fits: Option<bool>) -> &'static str {
    tr(
        lang,
        match fits {
            Some(true) => Msg::RecommendationFits,
            Some(false) => Msg::RecommendationDoesNotFit,
            None => Msg::RecommendationUnknownFit,
        },
    )
}

/// What the model says after the change: peaks for a plan, the working set and utilisation for
/// a workload, or only whether it fits.
pub fn result(lang: Lang, o: &Outcome) -> String {
    let mut fits = fits_word(lang, o.fits).to_string();
    // The phase of the plan as it stands that breaks, and that this change makes fit.
    if let (Some(true), Some(p)) = (o.fits, o.fixes_phase) {
        let name = |p| super::phase::phase_name(lang, p);
        fits = match o.fixes_gpu_phase {
            Some(g) => trf(
                lang,
                Msg::RecommendationFixesBoth,
                &[
                    ("fits", &fits),
                    ("cpu_phase", name(p)),
                    ("gpu_phase", name(g)),
                ],
            ),
            None => trf(
                lang,
                Msg::RecommendationFixes,
                &[("fits", &fits), ("phase", name(p))],
            ),
        };
    }
    if let Some(h) = headroom(lang, o) {
        fits = trf(
            lang,
            Msg::AdviceFitsWithHeadroom,
            &[("fits", &fits), ("headroom", &h)],
        );
    }
    let fits = fits.as_str();
    if o.cpu_peak_bytes_per_node.is_some() || o.gpu_peak_bytes_per_gpu.is_some() {
        trf(
            lang,
            Msg::RecommendationResultTraining,
            &[
                (
                    "cpu",
                    &format::gib_or_unknown(lang, o.cpu_peak_bytes_per_node),
                ),
                (
                    "gpu",
                    &format::gib_or_unknown(lang, o.gpu_peak_bytes_per_gpu),
                ),
                ("fits", fits),
            ],
        )
    } else if o.working_set_bytes.is_some() || o.predicted_gpu_utilization.is_some() {
        trf(
            lang,
            Msg::RecommendationResultWorkload,
            &[
                (
                    "working_set",
                    &format::gib_or_unknown(lang, o.working_set_bytes),
                ),
                (
                    "utilization",
                    &match o.predicted_gpu_utilization {
                        Some(u) => format::percent(u),
                        // Past RAM the run swaps: no utilisation is reachable.
                        None if o.tightest == Some(Limit::Ram)
                            && o.headroom_bytes.is_some_and(|h| h < 0) =>
                        {
                            tr(lang, Msg::WorkUtilizationPastRam).to_string()
                        }
                        None => format::unknown(lang),
                    },
                ),
                ("fits", fits),
            ],
        )
    } else {
        fits.to_string()
    }
}

/// One line: "[setting] Set num_workers=4 — then: working set 20.1 GiB, … — fits".
pub fn line(lang: Lang, r: &Recommendation) -> String {
    trf(
        lang,
        Msg::JoinRecommendation,
        &[
            ("kind", kind(lang, r.kind)),
            ("title", &title(lang, r)),
            ("result", &result(lang, &r.result)),
        ],
    )
}

/// The kind as a tag before a title: "[setting]" / "【设置】".
pub fn kind_tag(lang: Lang, k: RecKind) -> String {
    trf(lang, Msg::JoinKindTag, &[("kind", kind(lang, k))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::Quantity;
    use crate::advisor::recommend::Subject;

    #[test]
    fn a_reshard_names_its_shard_in_decimal_gb() {
        // 2,000,000,000 bytes is "2 GB" as `save_pretrained(max_shard_size="2GB")` counts.
        let r = Recommendation::new(
            AdviceId::ReshardCheckpoint,
            Subject::Inference,
            Outcome::default(),
        )
        .with("shard", Quantity::Bytes(2_000_000_000));
        let en = title(Lang::En, &r);
        assert!(
            en.starts_with("Re-save the checkpoint in 2 GB shards"),
            "{en}"
        );
    }
}

/// A relative speed as a factor: two significant figures ("0.12", "0.75", "2.7", "1").
fn factor(s: f64) -> String {
    let digits = if s >= 10.0 {
        0
    } else if s >= 1.0 {
        1
    } else {
        2
    };
    let t = format!("{s:.digits$}");
    if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t
    }
}

/// What the change does to the plan's speed, with the figure's source, or why it can't be
/// known: "speed 0.12× the plan as it stands (bytes read per token at each device's
/// bandwidth)".
pub fn speed(lang: Lang, o: &Outcome) -> String {
    use crate::advisor::recommend::{SpeedSource as S, SpeedUnknown as U};
    match (o.relative_speed, o.speed_source, o.speed_unknown) {
        (Some(s), src, _) => {
            let source = match src.unwrap_or(S::Unchanged) {
                S::Unchanged => Msg::AdviceSpeedSourceUnchanged,
                S::Pipeline => Msg::AdviceSpeedSourcePipeline,
                S::Bandwidth => Msg::AdviceSpeedSourceBandwidth,
                S::Recompute => Msg::AdviceSpeedSourceRecompute,
                S::StepTime => Msg::AdviceSpeedSourceStepTime,
            };
            // "1× the plan" reads oddly, in Chinese most of all: the same speed is said so.
            if (s - 1.0).abs() < 0.005 {
                trf(lang, Msg::AdviceSpeedSame, &[("source", tr(lang, source))])
            } else {
                trf(
                    lang,
                    Msg::AdviceSpeedKnown,
                    &[("speed", &factor(s)), ("source", tr(lang, source))],
                )
            }
        }
        (None, _, Some(why)) => {
            let why = match why {
                U::DemandUnknown => Msg::AdviceSpeedWhyDemand,
                U::ComputeUnknown => Msg::AdviceSpeedWhyCompute,
                U::TokensUnknown => Msg::AdviceSpeedWhyTokens,
                U::BandwidthUnknown => Msg::AdviceSpeedWhyBandwidth,
                U::InterconnectUnknown => Msg::AdviceSpeedWhyInterconnect,
            };
            trf(lang, Msg::AdviceSpeedUnknown, &[("why", tr(lang, why))])
        }
        (None, _, None) => String::new(),
    }
}

/// What the change costs, in words and in speed: "slower: …; speed 0.75× the plan as it
/// stands (…)". The cost alone when the result carries no speed (an assessment read from an
/// older file).
pub fn cost_and_speed(lang: Lang, r: &Recommendation) -> String {
    let (c, s) = (cost(lang, r), speed(lang, &r.result));
    if s.is_empty() {
        c
    } else {
        trf(
            lang,
            Msg::AdviceCostWithSpeed,
            &[("cost", &c), ("speed", &s)],
        )
    }
}

/// The change in the user's own tools, each with its label ("In deepspeed:") and its text, in
/// the recommendation's order.
pub fn native(lang: Lang, r: &Recommendation) -> Vec<(String, String)> {
    r.native
        .iter()
        .map(|n| {
            (
                trf(lang, Msg::AdviceNativeLabel, &[("tool", n.tool.name())]),
                n.text.clone(),
            )
        })
        .collect()
}

#[cfg(test)]
mod speed_tests {
    use super::*;

    #[test]
    fn a_factor_keeps_two_significant_figures() {
        assert_eq!(factor(0.1234), "0.12");
        assert_eq!(factor(0.75), "0.75");
        assert_eq!(factor(1.0), "1");
        assert_eq!(factor(2.66), "2.7");
        assert_eq!(factor(12.4), "12");
    }
}
