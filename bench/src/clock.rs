//! The clock the sparse benchmark times runs with: the CPU time of the calling thread where the
//! platform has one (other processes on a busy machine do not count), else the wall clock.
#![cfg_attr(
    unix,
    expect(
        unsafe_code,
        reason = "reading the thread's CPU clock is a call to `clock_gettime` through libc"
    )
)]

use std::time::{Duration, Instant};

/// A started measurement.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// The thread's CPU time at the start.
    Cpu(Duration),
    /// The wall clock at the start.
    Wall(Instant),
}

impl Clock {
    /// Starts measuring.
    pub fn start() -> Clock {
        match thread_cpu_time() {
            Some(t) => Clock::Cpu(t),
            None => Clock::Wall(Instant::now()),
        }
    }

    /// The time since [`Clock::start`].
    pub fn elapsed(self) -> Duration {
        match self {
            Clock::Cpu(start) => thread_cpu_time().map_or(Duration::ZERO, |now| now - start),
            Clock::Wall(start) => start.elapsed(),
        }
    }

    /// Whether the clock counts this thread's CPU time.
    pub fn is_cpu_time() -> bool {
        thread_cpu_time().is_some()
    }
}

/// The CPU time this thread has used, if the platform reports it.
#[cfg(unix)]
fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through a pointer to a valid, exclusive local.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    Some(Duration::new(
        u64::try_from(ts.tv_sec).ok()?,
        u32::try_from(ts.tv_nsec).ok()?,
    ))
}

/// The CPU time this thread has used, if the platform reports it.
#[cfg(not(unix))]
fn thread_cpu_time() -> Option<Duration> {
    None
}
