//! The published RAM:VRAM rules in words: names, formulas, the rules table.

use crate::advisor::rules::Basis;
use crate::advisor::{RuleId, RuleResult, RuleStatus};
use crate::format;
use crate::i18n::{Lang, Msg, tr, trf};

/// A rule's short name ("RAPIDS doctor").
pub fn rule_name(lang: Lang, id: RuleId) -> &'static str {
    tr(
        lang,
        match id {
            RuleId::SeedNoOffload => Msg::RuleSeedNoOffload,
            RuleId::SeedOffload => Msg::RuleSeedOffload,
            RuleId::SeedLargeModel => Msg::RuleSeedLargeModel,
            RuleId::DettmersLargestGpu => Msg::RuleDettmersLargestGpu,
            RuleId::BekmanTotalVram => Msg::RuleBekmanTotalVram,
            RuleId::RapidsDoctor => Msg::RuleRapidsDoctor,
            RuleId::Puget2x => Msg::RulePuget2x,
            RuleId::NvidiaRa128PerGpu => Msg::RuleNvidiaRa128PerGpu,
            RuleId::Cisco3x => Msg::RuleCisco3x,
        },
    )
}

/// The rule as a formula: "RAM ≥ 1.8 × total VRAM", "RAM ≥ 128.0 GiB per GPU".
pub fn rule_statement(lang: Lang, r: &RuleResult) -> String {
    match r.basis {
        Basis::TotalVram => trf(
            lang,
            Msg::RuleStatementTotal,
            &[("factor", &factor(r.factor))],
        ),
        Basis::LargestGpu => trf(
            lang,
            Msg::RuleStatementLargest,
            &[("factor", &factor(r.factor))],
        ),
        Basis::PerGpu => trf(
            lang,
            Msg::RuleStatementPerGpu,
            // In the rule's own unit: NVIDIA writes decimal GB.
            &[("amount", &format::gb(r.factor.round() as u64))],
        ),
    }
}

fn factor(f: f64) -> String {
    if f.fract() == 0.0 {
        format!("{f:.0}")
    } else {
        format!("{f}")
    }
}

/// The rules table's header: rule, formula, required, this machine, result.
pub fn rule_header(lang: Lang) -> [&'static str; 5] {
    [
        Msg::ColRule,
        Msg::ColFormula,
        Msg::ColRequired,
        Msg::ColActual,
        Msg::ColStatus,
    ]
    .map(|m| tr(lang, m))
}

/// One row of the rules table, matching [`rule_header`].
pub fn rule_row(lang: Lang, r: &RuleResult) -> [String; 5] {
    [
        rule_name(lang, r.id).to_string(),
        rule_statement(lang, r),
        format::gib_or_unknown(lang, r.required_bytes),
        format::gib_or_unknown(lang, r.actual_bytes),
        rule_status(lang, r.status).to_string(),
    ]
}

/// "pass" / "fail" / "can't check" / "n/a".
pub fn rule_status(lang: Lang, s: RuleStatus) -> &'static str {
    tr(
        lang,
        match s {
            RuleStatus::Pass => Msg::StatusPass,
            RuleStatus::Fail => Msg::StatusFail,
            RuleStatus::CantCheck => Msg::StatusCantCheck,
            RuleStatus::NotApplicable => Msg::StatusNotApplicable,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::advisor::assess;
    use crate::probe::gpu::GpuSource;
    use crate::probe::gpu::fake::FakeScenario;
    use crate::profile::MachineProfile;

    #[test]
    fn rule_statements_read_naturally() {
        let a = assess(
            &MachineProfile {
                gpus: FakeScenario::EightH100.probe().gpus,
                ..MachineProfile::unknown()
            },
            &crate::advisor::Scenario::NONE,
        );
        let rapids = a
            .rules
            .iter()
            .find(|r| r.id == RuleId::RapidsDoctor)
            .unwrap();
        assert_eq!(rule_statement(Lang::En, rapids), "RAM ≥ 1.8 × total VRAM");
        let nvidia = a
            .rules
            .iter()
            .find(|r| r.id == RuleId::NvidiaRa128PerGpu)
            .unwrap();
        assert_eq!(
            rule_statement(Lang::Zh, nvidia),
            "每块 GPU 配内存 ≥ 128\u{a0}GB"
        );
    }
}
