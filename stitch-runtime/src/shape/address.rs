//! Network addresses, advertised as strings of exactly the forms `std::net` reads: a format
//! for a one-family address (checked by std's own parser), a pattern for the others. The
//! patterns are held to std's parsers by a differential test over generated spellings, valid
//! and nearly so.

use super::{Shape, text};
use crate::ir::Node;

/// An IPv4 address as Rust reads one: four decimal octets up to 255, without leading zeros.
macro_rules! ipv4 {
    () => {
        "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}

/// One group of an IPv6 address: one to four hex digits, leading zeros allowed.
macro_rules! group {
    () => {
        "[0-9A-Fa-f]{1,4}"
    };
}

/// An IPv6 address with a `::` after `$head` + 1 groups: then up to `$tail` + 1 groups, or up
/// to `$before_v4` groups and an IPv4 address standing for the last two.
macro_rules! compressed {
    ($head:literal, $tail:literal, $before_v4:literal) => {
        concat!(
            "|(?:",
            group!(),
            ":){",
            $head,
            "}",
            group!(),
            "::(?:(?:",
            group!(),
            ":){0,",
            $tail,
            "}",
            group!(),
            "|(?:",
            group!(),
            ":){0,",
            $before_v4,
            "}",
            ipv4!(),
            ")?"
        )
    };
}

/// An IPv6 address as Rust reads one: eight groups, the last two perhaps an IPv4 address; or
/// a `::` standing for at least one zero group, with up to seven groups around it, of which
/// the last two after it may be an IPv4 address (never one before it).
macro_rules! ipv6 {
    () => {
        concat!(
            "(?:(?:",
            group!(),
            ":){6}(?:",
            group!(),
            ":",
            group!(),
            "|",
            ipv4!(),
            ")",
            "|::(?:(?:",
            group!(),
            ":){0,6}",
            group!(),
            "|(?:",
            group!(),
            ":){0,5}",
            ipv4!(),
            ")?",
            compressed!(0, 5, 4),
            compressed!(1, 4, 3),
            compressed!(2, 3, 2),
            compressed!(3, 2, 1),
            compressed!(4, 1, 0),
            "|(?:",
            group!(),
            ":){5}",
            group!(),
            "::(?:",
            group!(),
            ")?",
            "|(?:",
            group!(),
            ":){6}",
            group!(),
            "::",
            ")"
        )
    };
}

/// A port as Rust reads one: 0 to 65535, leading zeros allowed.
macro_rules! port {
    () => {
        "0*(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}|0)"
    };
}

/// An IPv6 address's scope as Rust reads one: `%` and a `u32`, leading zeros allowed.
macro_rules! scope {
    () => {
        concat!(
            "(?:%0*(?:[0-9]{1,9}|[1-3][0-9]{9}|4[01][0-9]{8}|42[0-8][0-9]{7}|429[0-3][0-9]{6}",
            "|4294[0-8][0-9]{5}|42949[0-5][0-9]{4}|429496[0-6][0-9]{3}|4294967[01][0-9]{2}",
            "|42949672[0-8][0-9]|429496729[0-5]))?"
        )
    };
}

/// An IPv4 address, or an IPv6 one.
const IP_PATTERN: &str = concat!("^(?:", ipv4!(), "|", ipv6!(), ")$");

/// An IPv4 address and a port, or a bracketed IPv6 address (with its scope, if any) and a port.
const SOCKET_PATTERN: &str = concat!(
    "^(?:",
    ipv4!(),
    "|\\[",
    ipv6!(),
    scope!(),
    "\\]):",
    port!(),
    "$"
);
const SOCKET_V4_PATTERN: &str = concat!("^", ipv4!(), ":", port!(), "$");
const SOCKET_V6_PATTERN: &str = concat!("^\\[", ipv6!(), scope!(), "\\]:", port!(), "$");

/// Every pattern a type here is advertised with (tested as the ecosystem's are).
#[cfg(test)]
pub(crate) const PATTERNS: &[&str] = &[
    IP_PATTERN,
    SOCKET_PATTERN,
    SOCKET_V4_PATTERN,
    SOCKET_V6_PATTERN,
];

impl Shape for std::net::Ipv4Addr {
    const SHAPE: &'static Node<'static> = &text(Some("ipv4"), None, true);
}
impl Shape for std::net::Ipv6Addr {
    const SHAPE: &'static Node<'static> = &text(Some("ipv6"), None, true);
}
impl Shape for std::net::IpAddr {
    const SHAPE: &'static Node<'static> = &text(None, Some(IP_PATTERN), true);
}
impl Shape for std::net::SocketAddr {
    const SHAPE: &'static Node<'static> = &text(None, Some(SOCKET_PATTERN), true);
}
impl Shape for std::net::SocketAddrV4 {
    const SHAPE: &'static Node<'static> = &text(None, Some(SOCKET_V4_PATTERN), true);
}
impl Shape for std::net::SocketAddrV6 {
    const SHAPE: &'static Node<'static> = &text(None, Some(SOCKET_V6_PATTERN), true);
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

    use proptest::collection::vec;
    use proptest::prelude::*;

    use super::{IP_PATTERN, SOCKET_PATTERN, SOCKET_V4_PATTERN, SOCKET_V6_PATTERN};

    /// Whether `text` matches `pattern`, as the keyword table compiles it (each pattern
    /// compiled once).
    fn matches(pattern: &'static str, text: &str) -> bool {
        use std::collections::HashMap;
        use std::sync::{LazyLock, Mutex};
        static COMPILED: LazyLock<Mutex<HashMap<&'static str, regex::Regex>>> =
            LazyLock::new(Mutex::default);
        let mut compiled = COMPILED.lock().expect("no test panics holding it");
        compiled
            .entry(pattern)
            .or_insert_with(|| {
                stitch_rules::pattern::compiled(pattern).expect("the pattern compiles")
            })
            .is_match(text)
    }

    /// Addresses from a fixed sequence: every width of group, zero runs of every length.
    fn addresses() -> impl Iterator<Item = (u32, u128, u16)> {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        (0..4000).map(move |round| {
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let (a, b) = (next(), next());
            // Zero some groups, so `::` runs of each length and place are written.
            let mask: u128 = (0..8)
                .filter(|group| (a >> (group + 8 * (round % 3))) & 1 == 1)
                .map(|group| 0xffff_u128 << (16 * group))
                .sum();
            let v6 = ((u128::from(a) << 64) | u128::from(b)) & mask;
            (
                b as u32 >> (round % 24),
                v6,
                (a >> 48) as u16 >> (round % 16),
            )
        })
    }

    #[test]
    fn what_rust_writes_of_an_address_matches_its_pattern() {
        for (v4, v6, port) in addresses() {
            let (v4, v6) = (Ipv4Addr::from(v4), Ipv6Addr::from(v6));
            for written in [v4.to_string(), v6.to_string()] {
                assert!(matches(IP_PATTERN, &written), "{written}");
                assert!(written.parse::<IpAddr>().is_ok());
            }
            let mapped = v4.to_ipv6_mapped().to_string();
            assert!(matches(IP_PATTERN, &mapped), "{mapped}");
            let sockets = [
                SocketAddr::from((v4, port)).to_string(),
                SocketAddr::from((v6, port)).to_string(),
            ];
            for written in &sockets {
                assert!(matches(SOCKET_PATTERN, written), "{written}");
            }
            let v4_socket = SocketAddrV4::new(v4, port).to_string();
            assert!(matches(SOCKET_V4_PATTERN, &v4_socket), "{v4_socket}");
            let v6_socket = SocketAddrV6::new(v6, port, 0, 3).to_string();
            assert!(matches(SOCKET_V6_PATTERN, &v6_socket), "{v6_socket}");
        }
    }

    #[test]
    fn what_rust_refuses_of_an_address_its_pattern_refuses() {
        for refused in [
            "01.2.3.4",
            "256.1.1.1",
            "1.2.3",
            ":::",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            "12345::",
            "g::1",
        ] {
            assert!(refused.parse::<IpAddr>().is_err(), "{refused}");
            assert!(!matches(IP_PATTERN, refused), "{refused}");
        }
        for refused in ["1.2.3.4:99999", "1.2.3.4:65536", "[::1]:70000", "[:::]:80"] {
            assert!(refused.parse::<SocketAddr>().is_err(), "{refused}");
            assert!(!matches(SOCKET_PATTERN, refused), "{refused}");
        }
    }

    /// `groups` spelled as RFC 4291 allows: each group in either case with up to four digits
    /// (leading zeros kept as `widths` asks), the zero run `run` (if it is one) written `::`,
    /// and the last two groups, where `v4_tail`, as an IPv4 address.
    fn spelled(
        groups: [u16; 8],
        v4_tail: bool,
        run: (usize, usize),
        widths: [usize; 8],
        upper: [bool; 8],
    ) -> String {
        let written = if v4_tail { 6 } else { 8 };
        let (start, end) = (run.0.min(written), (run.0 + run.1).min(written));
        let compressed = start < end && groups[start..end].iter().all(|group| *group == 0);
        let group = |i: usize| {
            let hex = format!("{:0width$x}", groups[i], width = widths[i]);
            if upper[i] { hex.to_uppercase() } else { hex }
        };
        let join = |range: std::ops::Range<usize>| range.map(group).collect::<Vec<_>>().join(":");
        let v4 = || {
            let [a, b] = groups[6].to_be_bytes();
            let [c, d] = groups[7].to_be_bytes();
            Ipv4Addr::new(a, b, c, d).to_string()
        };
        let mut text = if compressed {
            format!("{}::{}", join(0..start), join(end..written))
        } else {
            join(0..written)
        };
        if v4_tail {
            if !(compressed && end == written) {
                text.push(':');
            }
            text.push_str(&v4());
        }
        text
    }

    /// Eight groups, many of them zero (so runs of every length and place occur).
    fn groups() -> impl Strategy<Value = [u16; 8]> {
        (any::<[u16; 8]>(), any::<u8>()).prop_map(|(mut groups, zeros)| {
            for (i, group) in groups.iter_mut().enumerate() {
                if zeros >> i & 1 == 1 {
                    *group = 0;
                }
            }
            groups
        })
    }

    /// A spelling near an IPv4 address: three to five octets, some past 255 or with a
    /// leading zero.
    fn near_ipv4() -> impl Strategy<Value = String> {
        let octet = prop_oneof![
            8 => (0..=255u16).prop_map(|octet| octet.to_string()),
            1 => (256..=999u16).prop_map(|octet| octet.to_string()),
            1 => "0[0-9]{1,2}",
        ];
        prop_oneof![8 => vec(octet.clone(), 4), 1 => vec(octet.clone(), 3), 1 => vec(octet, 5)]
            .prop_map(|octets| octets.join("."))
    }

    /// A spelling near an IPv6 address: parts of one to five hex digits, or near IPv4
    /// addresses, separated by one to three colons or none, a `::` perhaps at either end.
    fn near_ipv6() -> impl Strategy<Value = String> {
        let part = prop_oneof![8 => "[0-9a-fA-F]{1,5}", 1 => near_ipv4()];
        let inner = prop_oneof![20 => Just(":"), 3 => Just("::"), 1 => Just(":::"), 1 => Just("")];
        let outer = prop_oneof![20 => Just(""), 3 => Just("::"), 1 => Just(":")];
        (vec(part, 0..10), vec(inner, 9), outer.clone(), outer).prop_map(
            |(parts, inner, first, last)| {
                let mut text = first.to_owned();
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        text.push_str(inner[i - 1]);
                    }
                    text.push_str(part);
                }
                text + last
            },
        )
    }

    /// A port or a scope as Rust reads one, or nearly: leading zeros, and numbers past the
    /// type's range.
    fn near_number(most: u64) -> impl Strategy<Value = String> {
        (0..=most + most / 8, 0..3usize)
            .prop_map(|(number, zeros)| format!("{}{number}", "0".repeat(zeros)))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Every spelling of an address std reads, its pattern takes.
        #[test]
        fn every_spelling_rust_reads_matches_the_pattern(
            groups in groups(),
            v4_tail: bool,
            run in (0..8usize, 1..=8usize),
            widths in any::<[u8; 8]>().prop_map(|widths| widths.map(|width| usize::from(width % 5))),
            upper: [bool; 8],
            scope: Option<u32>,
            port: u16,
            zeros in 0..3usize,
        ) {
            let text = spelled(groups, v4_tail, run, widths, upper);
            prop_assert_eq!(text.parse::<Ipv6Addr>(), Ok(Ipv6Addr::from(groups)), "{}", text);
            prop_assert!(matches(IP_PATTERN, &text), "{}", text);
            let scope = scope.map(|scope| format!("%{}{scope}", "0".repeat(zeros)));
            let socket = format!("[{text}{}]:{}{port}", scope.unwrap_or_default(), "0".repeat(zeros));
            prop_assert!(socket.parse::<SocketAddrV6>().is_ok(), "{}", socket);
            prop_assert!(matches(SOCKET_V6_PATTERN, &socket), "{}", socket);
            prop_assert!(matches(SOCKET_PATTERN, &socket), "{}", socket);
        }

        /// Of spellings near an address, the pattern takes exactly those std reads.
        #[test]
        fn the_patterns_take_exactly_what_rust_reads(
            v6 in near_ipv6(),
            v4 in near_ipv4(),
            scope in near_number(u64::from(u32::MAX)),
            port in near_number(u64::from(u16::MAX)),
            scoped: bool,
        ) {
            for text in [&v6, &v4] {
                prop_assert_eq!(matches(IP_PATTERN, text), text.parse::<IpAddr>().is_ok(), "{}", text);
            }
            let scope = if scoped { format!("%{scope}") } else { String::new() };
            let v6_socket = format!("[{v6}{scope}]:{port}");
            let read = v6_socket.parse::<SocketAddrV6>().is_ok();
            prop_assert_eq!(matches(SOCKET_V6_PATTERN, &v6_socket), read, "{}", v6_socket);
            prop_assert_eq!(matches(SOCKET_PATTERN, &v6_socket), read, "{}", v6_socket);
            let v4_socket = format!("{v4}:{port}");
            let read = v4_socket.parse::<SocketAddrV4>().is_ok();
            prop_assert_eq!(matches(SOCKET_V4_PATTERN, &v4_socket), read, "{}", v4_socket);
            prop_assert_eq!(matches(SOCKET_PATTERN, &v4_socket), read, "{}", v4_socket);
        }
    }
}
