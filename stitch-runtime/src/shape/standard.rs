//! The standard library's other types a tool takes: network addresses (strings of a format or
//! a pattern), paths (strings), durations and system times (serde's objects), tuples
//! (positional arrays), ranges (objects of `start` and `end`), the wrappers whose wire form is
//! their content's, atomics, and the signed non-zero integers.

use std::marker::PhantomData;

use super::{Shape, converted, text};
use crate::ir::{Doc, Field, Kind, Node, Object};
use crate::shape::issue::{Issue, JsonPointer};

/// An IPv4 address as Rust reads one: four decimal octets up to 255, without leading zeros.
macro_rules! ipv4 {
    () => {
        "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}

/// An IPv6 address: eight groups, or fewer around one `::`, the last two of them perhaps an
/// IPv4 address (the forms RFC 4291 writes; Rust reads them all).
macro_rules! ipv6 {
    () => {
        concat!(
            "(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}",
            "|(?:[0-9A-Fa-f]{1,4}:){1,7}:",
            "|(?:[0-9A-Fa-f]{1,4}:){1,6}:[0-9A-Fa-f]{1,4}",
            "|(?:[0-9A-Fa-f]{1,4}:){1,5}(?::[0-9A-Fa-f]{1,4}){1,2}",
            "|(?:[0-9A-Fa-f]{1,4}:){1,4}(?::[0-9A-Fa-f]{1,4}){1,3}",
            "|(?:[0-9A-Fa-f]{1,4}:){1,3}(?::[0-9A-Fa-f]{1,4}){1,4}",
            "|(?:[0-9A-Fa-f]{1,4}:){1,2}(?::[0-9A-Fa-f]{1,4}){1,5}",
            "|[0-9A-Fa-f]{1,4}:(?::[0-9A-Fa-f]{1,4}){1,6}",
            "|:(?:(?::[0-9A-Fa-f]{1,4}){1,7}|:)",
            "|(?:[0-9A-Fa-f]{1,4}:){6}",
            ipv4!(),
            "|::(?:[Ff]{4}(?::0{1,4})?:)?",
            ipv4!(),
            "|(?:[0-9A-Fa-f]{1,4}:){1,4}:",
            ipv4!(),
            ")"
        )
    };
}

/// A port: 0 to 65535, as Rust writes it.
macro_rules! port {
    () => {
        "(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}|0)"
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
    "(?:%[0-9]+)?\\]):",
    port!(),
    "$"
);
const SOCKET_V4_PATTERN: &str = concat!("^", ipv4!(), ":", port!(), "$");
const SOCKET_V6_PATTERN: &str = concat!("^\\[", ipv6!(), "(?:%[0-9]+)?\\]:", port!(), "$");

/// Every pattern a type here is advertised with (tested as the ecosystem's are).
#[cfg(test)]
pub(crate) const PATTERNS: &[&str] = &[
    IP_PATTERN,
    SOCKET_PATTERN,
    SOCKET_V4_PATTERN,
    SOCKET_V6_PATTERN,
];

macro_rules! texts {
    ($($ty:ty => $node:expr),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &$node;
        }
    )*};
}

texts!(
    std::net::Ipv4Addr => text(Some("ipv4"), None, true),
    std::net::Ipv6Addr => text(Some("ipv6"), None, true),
    std::net::IpAddr => text(None, Some(IP_PATTERN), true),
    std::net::SocketAddr => text(None, Some(SOCKET_PATTERN), true),
    std::net::SocketAddrV4 => text(None, Some(SOCKET_V4_PATTERN), true),
    std::net::SocketAddrV6 => text(None, Some(SOCKET_V6_PATTERN), true),
    std::path::PathBuf => text(None, None, false),
    std::path::Path => text(None, None, false),
);

const DURATION_FIELDS: &[Field] = &[
    Field::new("secs", <u64 as Shape>::SHAPE, false, Some("Whole seconds.")),
    Field::new(
        "nanos",
        <u32 as Shape>::SHAPE,
        false,
        Some("Nanoseconds past the whole seconds."),
    ),
];
const DURATION: Node = Node::of(Kind::Object(&Object::new(
    DURATION_FIELDS,
    true,
    Some(Doc::new("A duration: whole seconds and nanoseconds.")),
)));

/// serde's form: an object of seconds and nanoseconds, refusing other keys, and a sum past
/// the type's range (converted).
impl Shape for std::time::Duration {
    const SHAPE: &'static Node<'static> = &converted(&DURATION);
}

const SYSTEM_TIME_FIELDS: &[Field] = &[
    Field::new(
        "secs_since_epoch",
        <u64 as Shape>::SHAPE,
        false,
        Some("Whole seconds since 1970-01-01T00:00:00Z."),
    ),
    Field::new(
        "nanos_since_epoch",
        <u32 as Shape>::SHAPE,
        false,
        Some("Nanoseconds past the whole seconds."),
    ),
];
const SYSTEM_TIME: Node = Node::of(Kind::Object(&Object::new(
    SYSTEM_TIME_FIELDS,
    true,
    Some(Doc::new(
        "A point in time: whole seconds and nanoseconds since the Unix epoch.",
    )),
)));

/// serde's form: an object of seconds and nanoseconds since the Unix epoch, refusing other
/// keys, and a time past the platform's range (converted).
impl Shape for std::time::SystemTime {
    const SHAPE: &'static Node<'static> = &converted(&SYSTEM_TIME);
}

/// Generic shapes built of other shapes: constants of a type of their own, where a generic
/// constant can refer to what it builds.
struct Parts<T: ?Sized>(PhantomData<T>);

macro_rules! tuples {
    ($(($($name:ident . $index:tt),+))*) => {$(
        impl<$($name: Shape),+> Parts<($($name,)+)> {
            const ELEMENTS: &'static [&'static Node<'static>] = &[$($name::SHAPE),+];
        }

        impl<$($name: Shape),+> Shape for ($($name,)+) {
            const SHAPE: &'static Node<'static> = &Node::of(Kind::Tuple(Parts::<($($name,)+)>::ELEMENTS));
            const REFINES: bool = $($name::REFINES)||+;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                $(if $name::REFINES {
                    let mark = pointer.push_index($index);
                    self.$index.refine(pointer, issues);
                    pointer.truncate(mark);
                })+
            }
        }
    )*};
}

tuples! {
    (A.0)
    (A.0, B.1)
    (A.0, B.1, C.2)
    (A.0, B.1, C.2, D.3)
    (A.0, B.1, C.2, D.3, E.4)
    (A.0, B.1, C.2, D.3, E.4, F.5)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
}

macro_rules! bounds {
    ($($range:ident [$($key:literal => $field:ident),+]),* $(,)?) => {$(
        impl<T: Shape> Parts<std::ops::$range<T>> {
            const FIELDS: &'static [Field<'static>] = &[$(Field::new($key, T::SHAPE, false, None)),+];
            const OBJECT: &'static Object<'static> = &Object::new(Self::FIELDS, true, None);
        }

        /// serde's form: an object of its bounds, refusing other keys.
        impl<T: Shape> Shape for std::ops::$range<T> {
            const SHAPE: &'static Node<'static> =
                &Node::of(Kind::Object(Parts::<std::ops::$range<T>>::OBJECT));
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                $(
                    let mark = pointer.push_key($key);
                    self.$field.refine(pointer, issues);
                    pointer.truncate(mark);
                )+
            }
        }
    )*};
}

bounds!(
    Range ["start" => start, "end" => end],
    RangeFrom ["start" => start],
    RangeTo ["end" => end],
);

impl<T: Shape> Parts<std::ops::RangeInclusive<T>> {
    const FIELDS: &'static [Field<'static>] = &[
        Field::new("start", T::SHAPE, false, None),
        Field::new("end", T::SHAPE, false, None),
    ];
    const OBJECT: &'static Object<'static> = &Object::new(Self::FIELDS, true, None);
}

/// serde's form: an object of its bounds, refusing other keys.
impl<T: Shape> Shape for std::ops::RangeInclusive<T> {
    const SHAPE: &'static Node<'static> =
        &Node::of(Kind::Object(Parts::<std::ops::RangeInclusive<T>>::OBJECT));
    const REFINES: bool = T::REFINES;

    fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
        for (key, bound) in [("start", self.start()), ("end", self.end())] {
            let mark = pointer.push_key(key);
            bound.refine(pointer, issues);
            pointer.truncate(mark);
        }
    }
}

/// Wrappers whose wire form is their content's, and how to reach it.
macro_rules! transparent {
    ($($ty:ident<T> $(where T: $bound:ident)? => |$value:ident| $inner:expr),* $(,)?) => {$(
        impl<T: Shape $(+ $bound)?> Shape for $ty<T> {
            const SHAPE: &'static Node<'static> = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                let $value = self;
                $inner.refine(pointer, issues);
            }
        }
    )*};
}

use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::num::{Saturating, Wrapping};
use std::sync::{Mutex, RwLock};

transparent!(
    Wrapping<T> => |value| value.0,
    Saturating<T> => |value| value.0,
    Reverse<T> => |value| value.0,
    Cell<T> where T: Copy => |value| value.get(),
    RefCell<T> => |value| value.borrow(),
);

/// A lock's content; a poisoned lock (a panic while it was held) has nothing to refine.
macro_rules! locks {
    ($($ty:ident => $read:ident),*) => {$(
        impl<T: Shape> Shape for $ty<T> {
            const SHAPE: &'static Node<'static> = T::SHAPE;
            const REFINES: bool = T::REFINES;

            fn refine(&self, pointer: &mut JsonPointer, issues: &mut Vec<Issue>) {
                if let Ok(value) = self.$read() {
                    value.refine(pointer, issues);
                }
            }
        }
    )*};
}

locks!(Mutex => lock, RwLock => read);

macro_rules! same_shape {
    ($($ty:ty => $as:ty),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = <$as as Shape>::SHAPE;
        }
    )*};
}

use std::sync::atomic;

same_shape!(
    atomic::AtomicBool => bool,
    atomic::AtomicI8 => i8, atomic::AtomicI16 => i16, atomic::AtomicI32 => i32,
    atomic::AtomicI64 => i64, atomic::AtomicIsize => isize,
    atomic::AtomicU8 => u8, atomic::AtomicU16 => u16, atomic::AtomicU32 => u32,
    atomic::AtomicU64 => u64, atomic::AtomicUsize => usize,
);

/// Signed non-zero integers: their type's range, and serde refuses the zero no schema keyword
/// here can exclude.
macro_rules! signed_non_zero {
    ($($ty:ty => $inner:ty),* $(,)?) => {$(
        impl Shape for $ty {
            const SHAPE: &'static Node<'static> = &converted(<$inner as Shape>::SHAPE);
        }
    )*};
}

signed_non_zero!(
    std::num::NonZeroI8 => i8, std::num::NonZeroI16 => i16, std::num::NonZeroI32 => i32,
    std::num::NonZeroI64 => i64, std::num::NonZeroI128 => i128,
    std::num::NonZeroIsize => isize,
);

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

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
}
