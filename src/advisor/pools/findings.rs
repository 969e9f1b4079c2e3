//! The pools' findings: one `pool-over-limit` per pool that doesn't fit, naming the pool and
//! the limit it overflows, with the levers of that limit as its advice.

use crate::advisor::findings::{Finding, FindingId, Quantity, Severity};

use super::types::{ConsumerId, LimitId, Pool, PoolKind};
use crate::advisor::recommend::AdviceId;

/// A finding for each pool whose consumers overflow a limit — [`Pool::overflowing`], with what is needed and what is there — except a discrete
/// pool's hard size, which the plans' own checks report: critical past the limit, a warning
/// inside it but not its margin.
pub fn findings(pools: &[Pool]) -> Vec<Finding> {
    pools
        .iter()
        .filter(|p| p.fits == Some(false))
        .filter_map(|p| {
            let l = p.overflowing()?;
            // A discrete pool's hard size is the plans' own RAM or VRAM check: they say it.
            if p.kind != PoolKind::Unified && l.id == LimitId::Physical {
                return None;
            }
            let mut advice: Vec<_> = l.lever.into_iter().collect();
            // A unified pool overflowed by vLLM's claim: a lower share is the lever.
            let claimed = p.consumers.iter().any(|c| c.id == ConsumerId::EngineClaim);
            if claimed && l.id == LimitId::Physical {
                advice.push(AdviceId::LowerGpuMemoryUtilization);
            }
            // Inside the limit but not its margin: tight, a warning, as `plan-tight`.
            let severity = if l.check.tight() {
                Severity::Warning
            } else {
                Severity::Critical
            };
            Some(
                Finding::new(FindingId::PoolOverLimit, severity, &advice)
                    .with("pool", Quantity::Text(p.name.clone()))
                    .with("limit", Quantity::Text(limit_name(l.id).into()))
                    .with("needed", Quantity::Bytes(l.check.needed_bytes))
                    .with("available", Quantity::Bytes(l.bytes)),
            )
        })
        .collect()
}

/// The limit's id as its JSON writes it (`commit-limit`); the views put it in words.
pub fn limit_name(id: super::LimitId) -> &'static str {
    use super::LimitId as L;
    match id {
        L::Physical => "physical",
        L::JobLimit => "job-limit",
        L::NumaBinding => "numa-binding",
        L::CommitLimit => "commit-limit",
        L::GpuWorkingSet => "gpu-working-set",
        L::Gtt => "gtt",
        L::EngineShare => "engine-share",
        L::StartupFree => "startup-free",
    }
}
