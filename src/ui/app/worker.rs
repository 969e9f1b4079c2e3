//! Background work that can't vanish: a panic on a worker thread (detection, a benchmark) is
//! caught and handed back as text, so the window shows an error instead of waiting forever.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `work`, returning its result or the panic's message.
pub(super) fn run_caught<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message() {
        assert_eq!(run_caught(|| 7), Ok(7));
        let n = 3;
        assert_eq!(
            run_caught(|| -> u32 { panic!("index {n} out of range") }),
            Err("index 3 out of range".to_string())
        );
        assert_eq!(
            run_caught(|| -> u32 { panic!("static text") }),
            Err("static text".to_string())
        );
    }
}
