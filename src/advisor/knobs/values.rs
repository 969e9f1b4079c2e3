//! Looking knobs up by id, flag or field, the settings of a machine change and range checks;
//! with the helpers each plan's own knob accessors use (`workload::knob_values`,
//! `training::knob_values`, `inference::knob_values`): a choice knob's value name for an enum
//! variant and back, and the settings that differ between two plans.

use super::rows_plans::{INFERENCE, MACHINE, TRAINING};
use super::rows_workload::WORKLOAD;
use super::types::{Knob, KnobId, KnobValue, Setting};
use crate::advisor::whatif::MachineChange;
use crate::profile::Problem;

use KnobId as K;
use KnobValue as V;

/// Every row of the table: the workload's, the training plan's, the served model's, then the
/// machine's.
pub fn all() -> impl Iterator<Item = &'static Knob> {
    WORKLOAD
        .iter()
        .chain(TRAINING)
        .chain(INFERENCE)
        .chain(MACHINE)
}

/// The row of `id`, `None` for an id without a row (the table test finds none).
pub fn find(id: KnobId) -> Option<&'static Knob> {
    all().find(|k| k.id == id)
}

/// The row of `id`. Every id has one ([`find`]; the table test checks), so this never fails;
/// a missing row would read as the first workload knob.
pub fn knob(id: KnobId) -> &'static Knob {
    find(id).unwrap_or(&WORKLOAD[0])
}

/// The flag of `id`, without `--` (`num-workers`).
pub fn flag(id: KnobId) -> &'static str {
    knob(id).flag
}

/// The knob whose flag is `flag` (without `--`).
pub fn of_flag(flag: &str) -> Option<&'static Knob> {
    all().find(|k| k.flag == flag)
}

/// The knob of `plan`'s rows that sets JSON field `field` (`num_workers`, `width`).
pub fn of_field(rows: &'static [Knob], field: &str) -> Option<&'static Knob> {
    rows.iter().find(|k| k.fields.contains(&field))
}

/// The value name of variant `v` of a choice knob: `variants` lists them in the order of the
/// row's names.
pub fn name_of<T: PartialEq>(id: KnobId, variants: &[T], v: &T) -> Option<KnobValue> {
    let i = variants.iter().position(|x| x == v)?;
    knob(id).choices().get(i).map(|n| V::Choice(n))
}

/// The variant a choice knob's value names.
pub fn variant_of<T: Copy>(id: KnobId, variants: &[T], v: KnobValue) -> Option<T> {
    let V::Choice(name) = v else { return None };
    let i = knob(id).choices().iter().position(|n| *n == name)?;
    variants.get(i).copied()
}

/// A whole number's value.
pub fn whole(v: KnobValue) -> Option<u64> {
    match v {
        V::Whole(n) => Some(n),
        _ => None,
    }
}

/// A whole number's value that fits 32 bits.
pub fn whole32(v: KnobValue) -> Option<u32> {
    whole(v).and_then(|n| u32::try_from(n).ok())
}

/// A decimal's value.
pub fn float(v: KnobValue) -> Option<f64> {
    match v {
        V::Float(f) => Some(f),
        _ => None,
    }
}

/// An on/off value.
pub fn on(v: KnobValue) -> Option<bool> {
    match v {
        V::Bool(b) => Some(b),
        _ => None,
    }
}

/// The knobs of `applied` whose value differs between `from` and `to`, with `to`'s value; a
/// knob `to` has no value for (storage left to the machine) is left out.
pub fn changed<P>(
    applied: &[KnobId],
    from: &P,
    to: &P,
    get: impl Fn(&P, KnobId) -> Option<KnobValue>,
) -> Vec<Setting> {
    applied
        .iter()
        .filter_map(|&id| {
            let value = get(to, id)?;
            (get(from, id) != Some(value)).then_some(Setting { knob: id, value })
        })
        .collect()
}

/// The settings of machine change `c`: `/dev/shm`, WSL's `memory=`, RAM, swap, the job's memory
/// limit, the GPU's wired limit, the page file, the GTT, the NUMA binding.
pub fn machine_settings(c: &MachineChange) -> Vec<Setting> {
    [
        (K::ShmSize, c.shm_bytes),
        (K::WslMemory, c.wsl_memory_bytes),
        (K::Ram, c.ram_bytes),
        (K::Swap, c.swap_bytes),
        (K::MemoryLimit, c.memory_limit_bytes),
        (K::GpuWiredLimit, c.gpu_wired_limit_bytes),
        (K::PageFile, c.page_file_bytes),
        (K::Gtt, c.gtt_bytes),
    ]
    .into_iter()
    .filter_map(|(knob, b)| {
        b.map(|b| Setting {
            knob,
            value: V::Whole(b),
        })
    })
    .chain(c.numa_bind.and_then(|n| n.name()).map(|name| Setting {
        knob: K::NumaBind,
        value: V::Choice(name),
    }))
    .collect()
}

/// Checks `v` against `k`'s range: the field it sets (the width's or the height's of a
/// resolution) and what is wrong when outside.
///
/// # Errors
/// A value below the minimum or above the maximum (a rate of 0 or less for a range above zero).
pub fn check_range(k: &Knob, v: KnobValue) -> Result<(), (&'static str, Problem)> {
    let Some(r) = k.range else {
        return Ok(());
    };
    let field = |i: usize| k.fields.get(i).or(k.fields.first()).copied().unwrap_or("");
    let whole = |n: u64, i: usize| {
        if (n as f64) < r.min || n as f64 > r.max {
            Err((
                field(i),
                Problem::out_of_range(n, r.min as u64, r.max as u64),
            ))
        } else {
            Ok(())
        }
    };
    match v {
        V::Whole(n) => whole(n, 0),
        V::Pair(w, h) => whole(u64::from(w), 0).and(whole(u64::from(h), 1)),
        V::Float(f)
            if !(f.is_finite() && f <= r.max && (f > r.min || !r.above_min && f == r.min)) =>
        {
            Err((
                field(0),
                Problem::AboveZeroAtMost {
                    value: f.to_string(),
                    hi: r.max.to_string(),
                },
            ))
        }
        _ => Ok(()),
    }
}
