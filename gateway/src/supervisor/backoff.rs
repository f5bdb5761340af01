//! Delays between attempts to start a worker that keeps failing:
//! 0.1 s, doubling, at most 10 s.

use std::time::Duration;

const FIRST: Duration = Duration::from_millis(100);
const LONGEST: Duration = Duration::from_secs(10);

#[derive(Debug, Default)]
pub struct Backoff {
    failures: u32,
}

impl Backoff {
    /// Records a failure and returns how long to wait before the next attempt.
    pub fn next_delay(&mut self) -> Duration {
        self.failures += 1;
        let doublings = (self.failures - 1).min(16);
        (FIRST * 2u32.pow(doublings)).min(LONGEST)
    }

    pub fn failures(&self) -> u32 {
        self.failures
    }

    pub fn reset(&mut self) {
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_from_a_tenth_of_a_second_up_to_ten_seconds() {
        let mut backoff = Backoff::default();
        let delays: Vec<u128> = (0..10).map(|_| backoff.next_delay().as_millis()).collect();
        assert_eq!(delays, [100, 200, 400, 800, 1600, 3200, 6400, 10000, 10000, 10000]);
        assert_eq!(backoff.failures(), 10);
        backoff.reset();
        assert_eq!(backoff.next_delay(), Duration::from_millis(100));
    }
}
