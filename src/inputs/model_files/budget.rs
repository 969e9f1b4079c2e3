//! One budget per `--model`: header bytes and entries over all its files together, and each
//! distinct file (device and inode) read once, however many names lead to it.

use std::collections::HashSet;
use std::path::Path;

use super::{
    Limit, MAX_MODEL_ENTRIES, MAX_MODEL_HEADER_BYTES, ModelFileError, ModelProblem, ReadWork,
};
use crate::fsutil::{FileId, InputFile};

/// What is left to read, and what was read.
pub(super) struct Budget {
    seen: HashSet<FileId>,
    /// What was read so far.
    pub work: ReadWork,
}

impl Budget {
    pub fn new() -> Budget {
        Budget {
            seen: HashSet::new(),
            work: ReadWork::default(),
        }
    }

    /// Counts `file` as opened; false when a file with its device and inode was read already
    /// (then it is skipped, not read again).
    pub fn first_time(&mut self, file: &InputFile) -> bool {
        self.work.files_opened += 1;
        match file.id {
            Some(id) if !self.seen.insert(id) => {
                self.work.duplicates += 1;
                false
            }
            _ => true,
        }
    }

    /// Header bytes left to read.
    pub fn bytes_left(&self) -> u64 {
        MAX_MODEL_HEADER_BYTES.saturating_sub(self.work.header_bytes)
    }

    /// Takes `n` header bytes of `file` from the budget before they are read.
    ///
    /// # Errors
    /// [`Limit::HeaderBytes`] when the model's headers would pass [`MAX_MODEL_HEADER_BYTES`].
    pub fn bytes(&mut self, file: &Path, n: u64) -> Result<(), ModelFileError> {
        let total = self.work.header_bytes.saturating_add(n);
        if total > MAX_MODEL_HEADER_BYTES {
            return Err(ModelFileError::new(
                file,
                ModelProblem::TooLarge {
                    what: Limit::HeaderBytes,
                    value: total,
                    cap: MAX_MODEL_HEADER_BYTES,
                },
            ));
        }
        self.work.header_bytes = total;
        Ok(())
    }

    /// Takes `n` entries (tensors, metadata keys) of `file` from the budget.
    ///
    /// # Errors
    /// [`Limit::Entries`] when the model would pass [`MAX_MODEL_ENTRIES`].
    pub fn entries(&mut self, file: &Path, n: u64) -> Result<(), ModelFileError> {
        let total = self.work.entries.saturating_add(n);
        if total > MAX_MODEL_ENTRIES {
            return Err(ModelFileError::new(
                file,
                ModelProblem::TooLarge {
                    what: Limit::Entries,
                    value: total,
                    cap: MAX_MODEL_ENTRIES,
                },
            ));
        }
        self.work.entries = total;
        Ok(())
    }
}
