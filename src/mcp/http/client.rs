//! Which client a request comes from: the connection's remote address, unless that address
//! is a proxy the server was told to trust, whose forwarded header (the one the operator
//! names, `X-Forwarded-For` or RFC 7239's `Forwarded`; the other is never read) then names
//! the client. Read right to left, the first address that is not itself a trusted proxy is
//! the client: what a client sends is never taken at its word, only what a trusted proxy
//! appended.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use axum::http::HeaderMap;

use super::ForwardedHeader;

/// How much of an address is one client: its first `v4` or `v6` bits.
#[derive(Clone, Copy, Debug)]
pub(super) struct ClientPrefixes {
    pub(super) v4: u8,
    pub(super) v6: u8,
}

impl ClientPrefixes {
    /// The client `address` belongs to: the address with its bits past the prefix cleared
    /// (an IPv4 address mapped into IPv6 is read as IPv4).
    pub(super) fn client_of(self, address: IpAddr) -> IpAddr {
        match address.to_canonical() {
            IpAddr::V4(v4) => {
                let kept = u32::MAX
                    .checked_shl(32 - u32::from(self.v4.min(32)))
                    .unwrap_or(0);
                IpAddr::V4(Ipv4Addr::from(u32::from(v4) & kept))
            }
            IpAddr::V6(v6) => {
                let kept = u128::MAX
                    .checked_shl(128 - u32::from(self.v6.min(128)))
                    .unwrap_or(0);
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & kept))
            }
        }
    }
}

/// The client a request with `headers` comes from, over a connection from `remote`, when
/// the proxies `trusted` name their clients in `header`.
pub(super) fn address(
    remote: IpAddr,
    headers: &HeaderMap,
    (trusted, header): (&[IpAddr], ForwardedHeader),
) -> IpAddr {
    if !trusted.contains(&remote) {
        return remote;
    }
    let forwarded: Vec<IpAddr> = match header {
        ForwardedHeader::Forwarded => listed(headers, "forwarded", forwarded_for),
        ForwardedHeader::XForwardedFor => {
            listed(headers, "x-forwarded-for", |element| parse(element.trim()))
        }
    };
    forwarded
        .into_iter()
        .rev()
        .find(|address| !trusted.contains(address))
        .unwrap_or(remote)
}

/// The addresses every `name` header lists, in order, as `read` reads each element; an
/// element `read` cannot read (`unknown`, an obfuscated name) ends the list there, since no
/// address before it can be told apart from one a client wrote.
fn listed(headers: &HeaderMap, name: &str, read: fn(&str) -> Option<IpAddr>) -> Vec<IpAddr> {
    let elements = headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','));
    let mut addresses = Vec::new();
    for element in elements {
        match read(element) {
            Some(address) => addresses.push(address),
            None => addresses.clear(),
        }
    }
    addresses
}

/// The `for=` address of one `Forwarded` element (`for=192.0.2.60;proto=http`,
/// `for="[2001:db8::17]:4711"`).
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (name, value) = pair.trim().split_once('=')?;
        if !name.trim().eq_ignore_ascii_case("for") {
            return None;
        }
        parse(value.trim().trim_matches('"'))
    })
}

/// An address, with or without its port (`192.0.2.60`, `192.0.2.60:80`, `[2001:db8::17]`,
/// `[2001:db8::17]:4711`, `2001:db8::17`).
fn parse(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
        .or_else(|| {
            let inner = text.strip_prefix('[')?.strip_suffix(']')?;
            inner.parse().ok()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, value.parse().unwrap());
        }
        headers
    }

    const PROXY: [u8; 4] = [10, 0, 0, 1];

    fn client(remote: [u8; 4], pairs: &[(&'static str, &'static str)]) -> IpAddr {
        client_by(ForwardedHeader::XForwardedFor, remote, pairs)
    }

    fn client_by(
        header: ForwardedHeader,
        remote: [u8; 4],
        pairs: &[(&'static str, &'static str)],
    ) -> IpAddr {
        let trusted = [IpAddr::from(PROXY)];
        address(IpAddr::from(remote), &headers(pairs), (&trusted, header))
    }

    #[test]
    fn a_client_is_its_address_up_to_the_prefix() {
        let prefixes = ClientPrefixes { v4: 32, v6: 64 };
        let v6 = |text: &str| text.parse::<IpAddr>().unwrap();
        assert_eq!(
            prefixes.client_of(v6("2001:db8:1:2:aaaa::1")),
            prefixes.client_of(v6("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(
            prefixes.client_of(v6("2001:db8:1:2::1")),
            prefixes.client_of(v6("2001:db8:1:3::1"))
        );
        let v4 = IpAddr::from([203, 0, 113, 5]);
        assert_eq!(prefixes.client_of(v4), v4);
        assert_eq!(prefixes.client_of(v6("::ffff:203.0.113.5")), v4);
        let wide = ClientPrefixes { v4: 24, v6: 0 };
        assert_eq!(wide.client_of(v4), IpAddr::from([203, 0, 113, 0]));
        assert_eq!(wide.client_of(v6("2001:db8::1")), v6("::"));
    }

    #[test]
    fn a_header_from_an_untrusted_address_is_ignored() {
        let forged = [("x-forwarded-for", "192.0.2.9")];
        assert_eq!(
            client([203, 0, 113, 5], &forged),
            IpAddr::from([203, 0, 113, 5])
        );
    }

    #[test]
    fn the_address_a_trusted_proxy_appended_is_the_client() {
        // The client wrote the first address itself; the proxy appended the second.
        let sent = [("x-forwarded-for", "192.0.2.9, 198.51.100.7")];
        assert_eq!(client(PROXY, &sent), IpAddr::from([198, 51, 100, 7]));
        let split = [
            ("x-forwarded-for", "192.0.2.9"),
            ("x-forwarded-for", "198.51.100.7:443"),
        ];
        assert_eq!(client(PROXY, &split), IpAddr::from([198, 51, 100, 7]));
        // A chain of trusted proxies is read through.
        let chain = [("x-forwarded-for", "198.51.100.7, 10.0.0.1")];
        assert_eq!(client(PROXY, &chain), IpAddr::from([198, 51, 100, 7]));
    }

    #[test]
    fn only_the_header_named_is_read() {
        // The proxy sets X-Forwarded-For and passes the client's own Forwarded through.
        let forged = [
            ("forwarded", "for=192.0.2.9"),
            ("x-forwarded-for", "198.51.100.7"),
        ];
        assert_eq!(client(PROXY, &forged), IpAddr::from([198, 51, 100, 7]));
        let forwarded = [
            (
                "forwarded",
                r#"for=192.0.2.9, for="[2001:db8::17]:4711";proto=https"#,
            ),
            ("x-forwarded-for", "198.51.100.7"),
        ];
        assert_eq!(
            client_by(ForwardedHeader::Forwarded, PROXY, &forwarded),
            "2001:db8::17".parse::<IpAddr>().unwrap()
        );
        let by_first = [("forwarded", "proto=http;For=192.0.2.60;by=10.0.0.1")];
        assert_eq!(
            client_by(ForwardedHeader::Forwarded, PROXY, &by_first),
            IpAddr::from([192, 0, 2, 60])
        );
        // Named Forwarded, a proxy that sends only X-Forwarded-For names no one.
        let other = [("x-forwarded-for", "198.51.100.7")];
        assert_eq!(
            client_by(ForwardedHeader::Forwarded, PROXY, &other),
            IpAddr::from(PROXY)
        );
    }

    #[test]
    fn a_proxy_that_names_no_address_is_the_client_itself() {
        assert_eq!(client(PROXY, &[]), IpAddr::from(PROXY));
        let unknown = [("forwarded", "for=unknown")];
        assert_eq!(
            client_by(ForwardedHeader::Forwarded, PROXY, &unknown),
            IpAddr::from(PROXY)
        );
        let garbage = [("x-forwarded-for", "not an address")];
        assert_eq!(client(PROXY, &garbage), IpAddr::from(PROXY));
    }
}
