//! Which UTC day it is, for dating usage counts. A trait so a test (or a
//! demo that replays days) can say which day it is; servers use
//! [`SystemClock`].

use std::sync::Mutex;

use crate::date::Date;

/// Tells today's date (UTC). Called on every hit recorded and every flush:
/// keep it cheap, and never fail (fall back to the last good day).
pub trait Clock: Send + Sync {
    fn today(&self) -> Date;
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn today(&self) -> Date {
        Date::today()
    }
}

/// A clock that says what it was last told (tests, replays).
#[derive(Debug)]
pub struct ManualClock(Mutex<Date>);

impl ManualClock {
    pub fn new(today: Date) -> Self {
        ManualClock(Mutex::new(today))
    }

    /// From now on, it is `day`.
    pub fn set(&self, day: Date) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = day;
    }
}

impl Clock for ManualClock {
    fn today(&self) -> Date {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}
