//! What a merged key says: which operations require it or offer it (the hints, with the
//! tag's name), and every operation's own wording of it, each text once.

use super::*;

#[derive(Contract, Deserialize)]
#[serde(tag = "kind")]
#[allow(dead_code)]
enum Hints {
    A {
        /// Shared.
        always: u8,
        sometimes: u8,
        /// Maybe.
        maybe: Option<u8>,
    },
    B {
        /// Shared.
        always: u8,
        /// Different.
        maybe: Option<u8>,
        #[serde(default)]
        sometimes: u8,
    },
}

#[test]
fn hints_name_the_operations_and_the_tag() {
    assert_eq!(
        json(Hints::INPUT_SCHEMA)["required"],
        json!(["kind", "always"])
    );
    assert_eq!(description::<Hints>("always"), "Shared.");
    assert_eq!(description::<Hints>("sometimes"), "Required if kind = A");
    // Worded differently, each text is kept, labelled by its operations: a merge loses none.
    assert_eq!(
        description::<Hints>("maybe"),
        "A: Maybe. B: Different. Available if kind = A | B"
    );
}

/// Three operations, two wording a shared key alike.
#[derive(Contract, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)]
enum Worded {
    Create {
        /// When it starts, as 'YYYY-MM-DD HH:MM'
        at: String,
    },
    Move {
        /// The new start; use list_slots to see the free ones.
        at: String,
    },
    Copy {
        /// When it starts, as 'YYYY-MM-DD HH:MM'
        at: String,
    },
}

#[test]
fn a_shared_key_worded_differently_keeps_every_text_once_labelled_by_its_operations() {
    let said = "create, copy: When it starts, as 'YYYY-MM-DD HH:MM'. move: The new start; use \
                list_slots to see the free ones.";
    assert_eq!(description::<Worded>("at"), said);
    // In every dialect.
    for &dialect in stitch::Dialect::ALL {
        let shown = json(stitch::schema_of::<Worded>(stitch::Rendering::Flat(
            dialect,
        )));
        let text = shown["properties"]["at"]["description"]
            .as_str()
            .unwrap_or_default();
        assert!(text.starts_with(said), "{dialect}: {text}");
    }
}

every_contract_here!(Hints, Worded);
