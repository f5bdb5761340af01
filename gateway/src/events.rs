//! Gateway events worth telling clients about (reloads, restarts, build
//! failures), with MCP's syslog levels. Sessions forward them as
//! `notifications/message` at or above the level the client chose.

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    const ALL: [(LogLevel, &'static str); 8] = [
        (LogLevel::Debug, "debug"),
        (LogLevel::Info, "info"),
        (LogLevel::Notice, "notice"),
        (LogLevel::Warning, "warning"),
        (LogLevel::Error, "error"),
        (LogLevel::Critical, "critical"),
        (LogLevel::Alert, "alert"),
        (LogLevel::Emergency, "emergency"),
    ];

    pub fn parse(name: &str) -> Option<LogLevel> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(level, _)| *level)
    }

    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(level, _)| *level == self).map_or("info", |(_, n)| n)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|(_, n)| *n).collect()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GatewayEvent {
    pub level: LogLevel,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_order_and_print() {
        assert!(LogLevel::Debug < LogLevel::Warning && LogLevel::Error < LogLevel::Emergency);
        for name in LogLevel::names() {
            assert_eq!(LogLevel::parse(name).unwrap().as_str(), name);
        }
        assert_eq!(LogLevel::parse("verbose"), None);
    }
}
