//! Names and citations in the reader's language (model presets, catalogue platforms, the rules'
//! sources) and the punctuation that joins a label to its value: Chinese text takes full-width
//! "：" and "（）" (DESIGN.md, "Text"), so no view writes `format!("{a}: {b}")` itself.

use crate::advisor::training::presets::Preset;
use crate::advisor::{RuleId, RuleResult};
use crate::i18n::{Lang, Msg, tr, trf};

/// Where a rule is published, in `lang`: the seed article by its title (it names no author),
/// the others by author, title and section.
pub fn rule_source(lang: Lang, id: RuleId) -> &'static str {
    tr(
        lang,
        match id {
            RuleId::SeedNoOffload | RuleId::SeedOffload | RuleId::SeedLargeModel => {
                Msg::RuleSourceSeed
            }
            RuleId::DettmersLargestGpu => Msg::RuleSourceDettmers,
            RuleId::BekmanTotalVram => Msg::RuleSourceBekman,
            RuleId::RapidsDoctor => Msg::RuleSourceRapids,
            RuleId::Puget2x => Msg::RuleSourcePuget,
            RuleId::NvidiaRa128PerGpu => Msg::RuleSourceNvidiaRa,
            RuleId::Cisco3x => Msg::RuleSourceCisco,
        },
    )
}

/// The sources of `rules`, each once, in the order the rules come.
pub fn rule_sources(lang: Lang, rules: &[RuleResult]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in rules {
        let source = rule_source(lang, r.id);
        if !out.contains(&source) {
            out.push(source);
        }
    }
    out
}

/// A model preset's name in `lang` ("7B decoder (Llama 2 7B)", "70 亿参数解码器（Llama 2 7B）");
/// a preset this table doesn't know keeps its built-in name.
pub fn preset_name(lang: Lang, p: &'static Preset) -> &'static str {
    let msg = match p.id.as_str() {
        "resnet50" => Msg::PresetResnet50,
        "vit-l16" => Msg::PresetVitL16,
        "opt-1.3b" => Msg::PresetOpt13b,
        "sdxl-unet" => Msg::PresetSdxlUnet,
        "llama2-7b" => Msg::PresetLlama27b,
        "llama2-13b" => Msg::PresetLlama213b,
        "llama-65b" => Msg::PresetLlama65b,
        "llama2-70b" => Msg::PresetLlama270b,
        _ => return &p.name,
    };
    tr(lang, msg)
}

/// A catalogue platform's name in `lang` (`assets/catalog/platforms.csv` names them in
/// English); names of products ("EPYC 9004/9005 (SP5)") and names not in the catalogue are
/// shown as written.
pub fn platform_name(lang: Lang, name: &str) -> String {
    let msg = match name {
        "Desktop (AM5 / LGA1700 / LGA1851)" => Msg::PlatformNameDesktopDdr5,
        "Desktop DDR4 (AM4 / LGA1200)" => Msg::PlatformNameDesktopDdr4,
        "Xeon Scalable 4th/5th gen (Sapphire/Emerald Rapids)" => Msg::PlatformNameXeonScalable,
        _ => return name.to_string(),
    };
    tr(lang, msg).to_string()
}

/// `rows` with a label that repeats the row above it left blank (every GPU under one "GPUs"),
/// as the window, the terminal and the reports show the hardware.
pub fn labels_once(rows: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut last: Option<String> = None;
    rows.into_iter()
        .map(|(label, value)| {
            let shown = if last.as_deref() == Some(label.as_str()) {
                String::new()
            } else {
                label.clone()
            };
            last = Some(label);
            (shown, value)
        })
        .collect()
}

/// "label: value" / "标签：取值".
pub fn labelled(lang: Lang, label: &str, value: &str) -> String {
    trf(
        lang,
        Msg::JoinLabelled,
        &[("label", label), ("value", value)],
    )
}

/// "value (note)" / "取值（说明）".
pub fn aside(lang: Lang, value: &str, note: &str) -> String {
    trf(lang, Msg::JoinAside, &[("value", value), ("note", note)])
}

/// "host: text" / "主机：文字", a line about one machine of several.
pub fn host_line(lang: Lang, host: &str, text: &str) -> String {
    trf(lang, Msg::JoinHost, &[("host", host), ("text", text)])
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_repeated_label_shows_once() {
        let rows = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(
            labels_once(rows(&[
                ("CPU", "x"),
                ("GPUs", "0"),
                ("GPUs", "1"),
                ("Disks", "d"),
                ("GPUs", "2")
            ])),
            rows(&[
                ("CPU", "x"),
                ("GPUs", "0"),
                ("", "1"),
                ("Disks", "d"),
                ("GPUs", "2")
            ])
        );
    }

    use super::*;
    use crate::advisor::training::presets::presets;

    #[test]
    fn every_preset_and_catalogue_platform_has_a_chinese_name() {
        // Model names stay as their authors write them; the decoders are described in words.
        for p in presets().iter().filter(|p| p.name.contains("decoder")) {
            assert!(preset_name(Lang::Zh, p).contains("参数解码器"), "{}", p.id);
        }
        assert_eq!(
            preset_name(
                Lang::Zh,
                crate::advisor::training::presets::preset("llama-65b").unwrap()
            ),
            "650 亿参数解码器（LLaMA 65B，原文的例子）"
        );
        let desktops = crate::catalog::catalog()
            .platforms
            .iter()
            .filter(|p| p.platform.starts_with("Desktop"))
            .count();
        assert_eq!(desktops, 2);
        for p in &crate::catalog::catalog().platforms {
            if p.platform.starts_with("Desktop") {
                assert!(platform_name(Lang::Zh, &p.platform).starts_with("台式机"));
            }
        }
    }

    #[test]
    fn chinese_joins_with_full_width_punctuation() {
        assert_eq!(labelled(Lang::Zh, "交换空间", "未知"), "交换空间：未知");
        assert_eq!(labelled(Lang::En, "swap", "unknown"), "swap: unknown");
        assert_eq!(aside(Lang::Zh, "0.35 GB/s", "实测"), "0.35 GB/s（实测）");
        assert_eq!(host_line(Lang::Zh, "g5", "内存不够"), "g5：内存不够");
    }
}
