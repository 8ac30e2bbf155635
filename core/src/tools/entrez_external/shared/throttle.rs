//! Reading PubChem's `X-Throttling-Control` header and deciding how far to back off.
//!
//! PubChem does not only refuse excess traffic with HTTP 503: every PUG REST
//! reply carries a status line ([`Throttling`]). Waiting only inside the call
//! that saw a warning would protect nobody else, so the backoff is expressed as
//! *extra reservations in the shared pacer* ([`Throttling::extra_slots`]): every
//! concurrent call of this server (and, on Workers, every isolate, through the
//! Durable Object) then slows down together. A Black status or a 503 also
//! lengthens the retry wait ([`Throttling::min_retry_wait_ms`]).

use crate::json;
use serde_json::Value;

/// One of PubChem's four traffic-light states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Under half of the allowance used, or the service idle.
    Green,
    /// Between half and three quarters used, or moderate load.
    Yellow,
    /// Over three quarters used, or the service busy.
    Red,
    /// Limit exceeded (requests are being blocked), or the service overloaded.
    Black,
}

impl Level {
    /// Reads a status word, accepting the service-status synonyms PubChem documents.
    pub fn parse(word: &str) -> Option<Level> {
        match word.trim().to_ascii_lowercase().as_str() {
            "green" | "idle" => Some(Level::Green),
            "yellow" | "moderate" => Some(Level::Yellow),
            "red" | "busy" => Some(Level::Red),
            "black" | "overloaded" => Some(Level::Black),
            _ => None,
        }
    }

    /// The word PubChem uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Green => "Green",
            Level::Yellow => "Yellow",
            Level::Red => "Red",
            Level::Black => "Black",
        }
    }
}

/// One indicator: its level and the percentage PubChem printed beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Indicator {
    /// Traffic-light state.
    pub level: Level,
    /// The percentage in parentheses, when present.
    pub percent: Option<u32>,
}

/// The three indicators of one `X-Throttling-Control` header, such as
/// `Request Count status: Green (0%), Request Time status: Green (0%), Service status: Green (20%)`.
///
/// The first two report this client's share of its per-minute allowance, the third how busy
/// PubChem is overall; each is Green, Yellow, Red or Black (Black: the limit is exceeded and
/// requests are being blocked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throttling {
    /// This client's request count against its allowance.
    pub request_count: Option<Indicator>,
    /// This client's request running time against its allowance.
    pub request_time: Option<Indicator>,
    /// PubChem's overall concurrent load.
    pub service: Option<Indicator>,
    /// The header as received, for messages.
    pub raw: String,
}

impl Throttling {
    /// Parses the header; `None` when no indicator could be read.
    pub fn parse(header: &str) -> Option<Throttling> {
        let mut t = Throttling {
            request_count: None,
            request_time: None,
            service: None,
            raw: header.trim().to_string(),
        };
        for part in header.split(',') {
            let Some((name, rest)) = part.split_once(':') else {
                continue;
            };
            let name = name.trim().to_ascii_lowercase();
            let rest = rest.trim();
            let (word, percent) = match rest.split_once('(') {
                Some((w, p)) => (
                    w,
                    p.trim_end_matches(')')
                        .trim()
                        .trim_end_matches('%')
                        .trim()
                        .parse::<u32>()
                        .ok(),
                ),
                None => (rest, None),
            };
            let Some(level) = Level::parse(word) else {
                continue;
            };
            let indicator = Some(Indicator { level, percent });
            if name.contains("count") {
                t.request_count = indicator;
            } else if name.contains("time") {
                t.request_time = indicator;
            } else if name.contains("service") {
                t.service = indicator;
            }
        }
        (t.request_count.is_some() || t.request_time.is_some() || t.service.is_some()).then_some(t)
    }

    /// The worst of the three levels.
    pub fn worst(&self) -> Level {
        [self.request_count, self.request_time, self.service]
            .iter()
            .flatten()
            .map(|i| i.level)
            .max()
            .unwrap_or(Level::Green)
    }

    /// Extra pacer slots to reserve after this reply, slowing every caller that shares the pacer.
    ///
    /// At 5 slots per window, one extra slot per request (Yellow) brings the
    /// rate to about half; three (Red) to about a quarter; Black gives up a
    /// whole window.
    pub fn extra_slots(&self, limit: u32) -> u32 {
        match self.worst() {
            Level::Green => 0,
            Level::Yellow => 1,
            Level::Red => 3,
            Level::Black => limit.max(1),
        }
    }

    /// The shortest wait before retrying a refused request.
    pub fn min_retry_wait_ms(&self) -> u64 {
        match self.worst() {
            Level::Green | Level::Yellow => 0,
            Level::Red => 1_000,
            Level::Black => 2_000,
        }
    }

    /// The structured form placed in results (`throttling`).
    pub fn to_value(&self) -> Value {
        let one = |i: &Option<Indicator>| match i {
            Some(i) => json!({"level": i.level.as_str(), "percent": i.percent}),
            None => Value::Null,
        };
        json!({
            "request_count": one(&self.request_count),
            "request_time": one(&self.request_time),
            "service": one(&self.service),
            "worst": self.worst().as_str(),
            "header": self.raw,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_header() {
        let t = Throttling::parse(
            "Request Count status: Green (0%), Request Time status: Yellow (55%), Service status: Green (20%)",
        )
        .unwrap();
        assert_eq!(
            t.request_count,
            Some(Indicator {
                level: Level::Green,
                percent: Some(0)
            })
        );
        assert_eq!(t.request_time.unwrap().level, Level::Yellow);
        assert_eq!(t.service.unwrap().percent, Some(20));
        assert_eq!(t.worst(), Level::Yellow);
        assert_eq!(t.extra_slots(5), 1);
        assert_eq!(t.min_retry_wait_ms(), 0);
    }

    #[test]
    fn black_and_service_synonyms_back_off_hardest() {
        let t =
            Throttling::parse("Request Count status: Black (110%), Service status: Busy").unwrap();
        assert_eq!(t.worst(), Level::Black);
        assert_eq!(t.extra_slots(5), 5);
        assert_eq!(t.min_retry_wait_ms(), 2_000);
        assert_eq!(t.service.unwrap().level, Level::Red);
        assert_eq!(t.to_value()["worst"], "Black");
    }

    #[test]
    fn garbage_is_not_a_status() {
        assert!(Throttling::parse("").is_none());
        assert!(Throttling::parse("whatever: purple").is_none());
    }
}
