//! Interrupting `cargo mcp-contract` must not leave servers behind. Each
//! server runs in its own process group (so that a wrapper such as `npx` and
//! the server it starts are stopped together); a terminal's Ctrl-C therefore
//! no longer reaches it. While a server runs, SIGINT, SIGTERM and SIGHUP,
//! where they still have their default action, kill every registered group
//! and then take their default action.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

const SLOTS: usize = 64;

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: AtomicI32 = AtomicI32::new(0);
static GROUPS: [AtomicI32; SLOTS] = [EMPTY; SLOTS];
static INSTALL: Once = Once::new();

/// Remembers a live process group; returns false when every slot is taken
/// (the group is then still killed by its owner, only not on a signal).
pub(crate) fn register(pgid: i32) -> bool {
    INSTALL.call_once(install);
    GROUPS.iter().any(|slot| {
        slot.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })
}

pub(crate) fn unregister(pgid: i32) {
    for slot in &GROUPS {
        let _ = slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Sends `signal` to the whole process group `pgid`.
pub(crate) fn kill_group(pgid: i32, signal: i32) {
    if pgid > 0 {
        // SAFETY: kill(2) has no memory-safety preconditions.
        unsafe {
            libc::kill(-pgid, signal);
        }
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    // Only async-signal-safe calls here: atomic loads, kill, signal, raise.
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            // SAFETY: see kill_group.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
    // SAFETY: restoring the default action and re-raising are async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

fn install() {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        // SAFETY: installs a handler that only makes async-signal-safe calls;
        // a disposition someone else chose (ignored, or a handler) is put back.
        unsafe {
            let previous = libc::signal(signal, handler);
            if previous != libc::SIG_DFL {
                libc::signal(signal, previous);
            }
        }
    }
}
