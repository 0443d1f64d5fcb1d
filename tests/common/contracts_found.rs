//! The contracts a test file defines, found by parsing it with syn.

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use super::Listed;

/// Whether an item's attributes derive `Contract`.
fn derives_contract(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("derive")
            && attr
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
                )
                .is_ok_and(|paths| {
                    paths
                        .iter()
                        .any(|path| path.segments.last().is_some_and(|s| s.ident == "Contract"))
                })
    })
}

/// Whether a macro body derives `Contract`, or invokes one of `writing`.
fn writes(tokens: TokenStream, writing: &[String]) -> bool {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    tokens.iter().enumerate().any(|(i, token)| match token {
        TokenTree::Ident(ident) if ident == "derive" => matches!(
            tokens.get(i + 1),
            Some(TokenTree::Group(group)) if group.stream().to_string().contains("Contract")
        ),
        TokenTree::Ident(ident) => {
            writing.contains(&ident.to_string())
                && matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        }
        TokenTree::Group(group) => writes(group.stream(), writing),
        _ => false,
    })
}

/// What a test file holds of contracts: items deriving `Contract`, macro definitions and
/// their invocations.
#[derive(Default)]
struct Finder {
    /// `macro_rules!` definitions: name and body.
    macros: Vec<(String, TokenStream)>,
    /// Invocations outside definitions: macro name and arguments.
    invocations: Vec<(String, TokenStream)>,
    derived: Vec<String>,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        if derives_contract(&item.attrs) {
            self.derived.push(item.ident.to_string());
        }
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        if derives_contract(&item.attrs) {
            self.derived.push(item.ident.to_string());
        }
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        match (&item.ident, item.mac.path.is_ident("macro_rules")) {
            (Some(name), true) => self
                .macros
                .push((name.to_string(), item.mac.tokens.clone())),
            _ => self.visit_macro(&item.mac),
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(name) = mac.path.get_ident() {
            self.invocations
                .push((name.to_string(), mac.tokens.clone()));
        }
    }
}

/// The contracts a test file defines, found by parsing it with syn: every item deriving
/// `Contract`, at any depth; and the contracts its contract-writing macros write (a
/// `macro_rules!` whose body derives `Contract`, or invokes one that does), named by the
/// identifiers at the top level of each invocation (`both_orders!(A, B, [..])`,
/// `pattern_contracts! { Name = r"..."; }`). An invocation that names none fails: its
/// contracts could not be found, so none escapes unseen.
pub(super) fn derived_contracts(file: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let source = std::fs::read_to_string(&path).expect("the test file is readable");
    let syntax = syn::parse_file(&source).expect("the test file parses");
    let mut finder = Finder::default();
    finder.visit_file(&syntax);
    let mut writing: Vec<String> = Vec::new();
    loop {
        let before = writing.len();
        for (name, body) in &finder.macros {
            if !writing.contains(name) && writes(body.clone(), &writing) {
                writing.push(name.clone());
            }
        }
        if writing.len() == before {
            break;
        }
    }
    let mut names = finder.derived;
    for (name, arguments) in &finder.invocations {
        if !writing.contains(name) {
            continue;
        }
        let named: Vec<String> = arguments
            .clone()
            .into_iter()
            .filter_map(|token| match token {
                TokenTree::Ident(ident) => Some(ident.to_string()),
                _ => None,
            })
            .collect();
        assert!(
            !named.is_empty(),
            "{file}: `{name}!` writes contracts but names none at its top level: list them"
        );
        names.extend(named);
    }
    names
}

/// Fails unless every contract `file` derives is one of `contracts` (by its type's name).
pub(super) fn assert_every_contract_listed(file: &str, contracts: &[Listed], what: &str) {
    let listed: Vec<&str> = contracts
        .iter()
        .map(|(name, _, _)| {
            let name = name.split('<').next().unwrap_or(name);
            name.rsplit("::").next().unwrap_or(name).trim()
        })
        .collect();
    for derived in derived_contracts(file) {
        assert!(
            listed.contains(&derived.as_str()),
            "`{derived}` in {file} is not {what}: add it to the list"
        );
    }
}
