//! A progress bar on standard error for long phases (lowering and analyzing large LLVM modules).
//! It draws only when standard error is a terminal and the work is large enough to wait for.

use std::io::{IsTerminal, Write};

/// A one-line progress bar, redrawn in place.
#[derive(Debug)]
pub struct Progress {
    label: &'static str,
    enabled: bool,
    min_total: usize,
    drawn: usize,
}

impl Progress {
    /// A bar for `label`, shown only when standard error is a terminal and the total (`total`
    /// here, or the one [`Progress::update`] gives, when `total` is not known yet and 0) is at
    /// least `min_total`.
    pub fn new(label: &'static str, total: usize, min_total: usize) -> Progress {
        Progress {
            label,
            enabled: (total == 0 || total >= min_total) && std::io::stderr().is_terminal(),
            min_total,
            drawn: usize::MAX,
        }
    }

    /// Shows `done` of `total` (redraws at most once per percent).
    pub fn update(&mut self, done: usize, total: usize) {
        if !self.enabled || total == 0 || total < self.min_total {
            return;
        }
        let percent = done * 100 / total;
        if percent == self.drawn {
            return;
        }
        self.drawn = percent;
        let width = 30;
        let filled = done * width / total;
        let bar: String = "#".repeat(filled) + &" ".repeat(width - filled);
        let mut err = std::io::stderr();
        // A failed write to the terminal is not worth failing the analysis for.
        let _ = write!(err, "\r{:<10} [{bar}] {done}/{total}", self.label);
        let _ = err.flush();
    }

    /// Erases the bar.
    pub fn finish(&mut self) {
        if self.enabled && self.drawn != usize::MAX {
            let _ = write!(std::io::stderr(), "\r{:80}\r", "");
        }
    }
}
