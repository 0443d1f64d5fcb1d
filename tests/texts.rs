//! Names and descriptions as the schemas write them: a name that needs a JSON escape is
//! escaped wherever it appears; a description carries the facts the derive computed with the
//! shared rules (its escape, its hash, its summary line), which are the facts constant
//! evaluation would compute; the compile-time texts are the run-time renderings; and an
//! enum's value docs are said wherever it is written.

mod common;

use common::json;
use serde::Deserialize;
use serde_json::json;
use stitch::{Contract, Shape};

/// Names that need a JSON escape: the derive marks them, the renderer escapes them in every
/// place a name appears (keys, `required`, the tag's enum, the hints), and plain names are
/// copied as they are.
#[derive(Debug, Deserialize, stitch::Contract)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Quoted {
    #[serde(rename = "say \"hi\"")]
    Say {
        #[serde(rename = "back\\slash")]
        text: String,
        plain: Option<i64>,
    },
    Other {
        plain: Option<i64>,
    },
}

#[test]
fn names_that_need_escapes_are_escaped_everywhere() {
    let stitch::ir::Kind::Union(union) = Quoted::SHAPE.kind else {
        panic!("a union")
    };
    let say = &union.variants[0];
    assert!(!say.plain && union.variants[1].plain);
    let fields = say.object.fields;
    assert!(!fields[0].plain && fields[1].plain);
    // The derive judges plainness natively; the runtime's rule (what `Doc::new` applies) is
    // the same one, on both sides of the proc-macro boundary.
    let plain_at_run_time = |name| stitch::ir::Doc::new(name).escape == stitch::ir::Escape::Plain;
    for (name, plain) in [
        (say.name, say.plain),
        (union.variants[1].name, union.variants[1].plain),
    ]
    .into_iter()
    .chain(fields.iter().map(|field| (field.name, field.plain)))
    {
        assert_eq!(plain, plain_at_run_time(name), "{name}");
    }

    let advertised = json(Quoted::INPUT_SCHEMA);
    let key = &advertised["properties"]["back\\slash"];
    assert_eq!(key["type"], "string");
    assert_eq!(
        key["description"], "Required if op = say \"hi\"",
        "the hint names the operation"
    );
    assert_eq!(
        advertised["properties"]["op"]["enum"],
        json!(["say \"hi\"", "Other"])
    );
    let exact = json(Quoted::EXACT_SCHEMA);
    let operation = &exact["oneOf"][0];
    assert_eq!(operation["properties"]["op"]["enum"], json!(["say \"hi\""]));
    assert_eq!(operation["required"], json!(["op", "back\\slash"]));
    let parsed = Quoted::parse(json!({"op": "say \"hi\"", "back\\slash": "x"}));
    assert!(matches!(parsed, Ok(Quoted::Say { .. })), "{parsed:?}");
}

/// Names that need an escape after plain ones, in later operations and mid-object: the
/// derive lists where they are among all the union's fields and operations, and each flag
/// lands on its own name.
#[derive(Debug, Deserialize, stitch::Contract)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum EscapedLater {
    First {
        a: i64,
        #[serde(rename = "b\"q")]
        b: i64,
        c: i64,
    },
    #[serde(rename = "sec\\ond")]
    Second { d: i64, e: i64 },
    Third {
        #[serde(rename = "f\tab")]
        f: i64,
    },
}

#[test]
fn escaped_names_after_plain_ones_are_flagged_where_they_are() {
    let stitch::ir::Kind::Union(union) = EscapedLater::SHAPE.kind else {
        panic!("a union")
    };
    let operations: Vec<_> = union.variants.iter().map(|v| (v.name, v.plain)).collect();
    assert_eq!(
        operations,
        [("First", true), ("sec\\ond", false), ("Third", true)]
    );
    let fields: Vec<_> = union
        .variants
        .iter()
        .flat_map(|v| v.object.fields.iter().map(|f| (f.name, f.plain)))
        .collect();
    assert_eq!(
        fields,
        [
            ("a", true),
            ("b\"q", false),
            ("c", true),
            ("d", true),
            ("e", true),
            ("f\tab", false)
        ]
    );
    let advertised = json(EscapedLater::INPUT_SCHEMA);
    assert_eq!(advertised["properties"]["b\"q"]["type"], "integer");
    assert_eq!(advertised["properties"]["f\tab"]["type"], "integer");
    assert_eq!(
        advertised["properties"]["op"]["enum"],
        json!(["First", "sec\\ond", "Third"])
    );
}

/// Descriptions and defaults here and there: each reaches its own field or operation.
#[derive(Debug, Deserialize, stitch::Contract)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Sparse {
    First {
        a: i64,
        /// Line one.
        ///
        /// Line two.
        b: i64,
        #[serde(default)]
        c: i64,
    },
    /// The second.
    Second {
        /// "Quoted".
        #[serde(default)]
        d: i64,
        e: i64,
    },
    Third {
        /// Plain f.
        f: i64,
    },
}

#[test]
fn descriptions_and_defaults_reach_the_fields_and_operations_they_were_written_on() {
    use stitch::ir::{Doc, Escape};

    let stitch::ir::Kind::Union(union) = Sparse::SHAPE.kind else {
        panic!("a union")
    };
    let operations: Vec<_> = union
        .variants
        .iter()
        .map(|v| (v.name, v.description.map(|d| d.text), v.summary.is_some()))
        .collect();
    assert_eq!(
        operations,
        [
            ("First", None, false),
            ("Second", Some("The second."), true),
            ("Third", None, false)
        ]
    );
    let fields: Vec<_> = union
        .variants
        .iter()
        .flat_map(|v| v.object.fields.iter())
        .map(|f| {
            (
                f.name,
                f.defaulted,
                f.description.map(|d| (d.text, d.escape)),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("a", false, None),
            (
                "b",
                false,
                Some((
                    "Line one.\nLine two.",
                    Escape::Escaped("Line one.\\nLine two.")
                ))
            ),
            ("c", true, None),
            (
                "d",
                true,
                Some(("\"Quoted\".", Escape::Escaped("\\\"Quoted\\\"."))),
            ),
            ("e", false, None),
            ("f", false, Some(("Plain f.", Escape::Plain))),
        ]
    );
    for doc in union
        .variants
        .iter()
        .flat_map(|v| v.object.fields.iter().filter_map(|f| f.description))
    {
        assert_eq!(doc.hash, Doc::new(doc.text).hash, "{doc:?}");
    }
    let advertised = json(Sparse::INPUT_SCHEMA);
    let described = |key: &str| advertised["properties"][key]["description"].to_string();
    assert!(
        described("b").starts_with(r#""Line one.\nLine two."#),
        "{advertised}"
    );
    assert!(
        described("d").starts_with(r#""\"Quoted\"."#),
        "{advertised}"
    );
}

/// Descriptions: the derive escapes and hashes each one, so that rendering copies it whole
/// and compares it without reading its bytes.
#[derive(Debug, Deserialize, stitch::Contract)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Documented {
    /// Says "hi" \ twice.
    /// And a second line.
    ///
    #[doc = "A second paragraph, with a tab:\t and a bell: \u{7}."]
    Say {
        /// The "shared" key.
        shared: i64,
        /// Plain words.
        said: Option<i64>,
    },
    /// Plain.
    Other {
        /// The "shared" key.
        shared: i64,
    },
}

/// Two descriptions of the same length that differ: they must not pass for one.
#[derive(Debug, Deserialize, stitch::Contract)]
#[serde(tag = "op")]
#[allow(dead_code)]
enum Disagreeing {
    A {
        /// Doc A.
        shared: i64,
    },
    B {
        /// Doc B.
        shared: i64,
    },
}

/// A description rendered as a field's, at run time.
fn rendered_description(doc: stitch::ir::Doc<'static>) -> String {
    use stitch::ir::{Field, Kind, Node, Object};
    let fields: &'static [Field<'static>] = Box::leak(Box::new([stitch::__private::field(
        "x",
        true,
        <i64 as Shape>::SHAPE,
        false,
        Some(doc),
    )]));
    let object: &'static Object<'static> = Box::leak(Box::new(Object::new(fields, false, None)));
    let node: &'static Node<'static> = Box::leak(Box::new(Node::of(Kind::Object(object))));
    stitch::Rendering::ADVERTISED.render(node)
}

#[test]
fn descriptions_carry_the_facts_constant_evaluation_would_compute() {
    use stitch::ir::{Doc, Escape};
    let stitch::ir::Kind::Union(union) = Documented::SHAPE.kind else {
        panic!("a union")
    };
    let mut docs = Vec::new();
    for variant in union.variants {
        docs.extend(variant.description);
        docs.extend(variant.summary);
        docs.extend(variant.object.fields.iter().filter_map(|f| f.description));
    }
    assert_eq!(docs.len(), 7);
    for doc in &docs {
        let computed = Doc::new(doc.text);
        assert_eq!(doc.hash, computed.hash, "{doc:?}");
        assert_ne!(
            doc.escape,
            Escape::Unknown,
            "the derive escapes every description"
        );
        // The derive's escape and the renderer's are one rule on both sides of the
        // proc-macro boundary: what the derive wrote is what the renderer would write.
        let escaped_by_the_renderer =
            rendered_description(stitch::__private::doc(doc.text, Escape::Unknown, doc.hash));
        assert_eq!(rendered_description(*doc), escaped_by_the_renderer);
    }
    assert_eq!(
        docs[0].text,
        "Says \"hi\" \\ twice. And a second line.\nA second paragraph, with a tab:\t and a bell: \u{7}."
    );
    assert_eq!(docs[1].text, "Says \"hi\" \\ twice. And a second line");
    assert!(docs[2].same(&docs[6]) && !docs[2].same(&docs[3]));

    let advertised = json(Documented::INPUT_SCHEMA);
    assert_eq!(
        advertised["properties"]["shared"]["description"], "The \"shared\" key.",
        "agreed, and escaped"
    );
    assert_eq!(
        advertised["properties"]["said"]["description"]
            .as_str()
            .map(|d| d.starts_with("Plain words.")),
        Some(true)
    );
    assert_eq!(
        advertised["properties"]["op"]["description"],
        "The operation: Say \u{2014} Says \"hi\" \\ twice. And a second line; Other \u{2014} Plain.",
        "each operation is named with the first line of its doc only"
    );
    let exact = json(Documented::EXACT_SCHEMA);
    assert_eq!(exact["oneOf"][0]["description"], docs[0].text);

    // Two texts of one length told apart: each is kept, labelled by its operation.
    let disagreeing = json(Disagreeing::INPUT_SCHEMA);
    assert_eq!(
        disagreeing["properties"]["shared"]["description"], "A: Doc A. B: Doc B.",
        "{disagreeing}"
    );
}

/// The compile-time texts (the advertised one written once, the exact one in its size
/// class) are the texts rendered at run time.
#[test]
fn compile_time_texts_are_the_run_time_renderings() {
    use stitch::Rendering;
    fn same<T: Contract>(input: &str, exact: &str) {
        let at_run_time = |rendering: Rendering| rendering.render(T::SHAPE);
        assert_eq!(input, at_run_time(Rendering::ADVERTISED));
        assert_eq!(exact, at_run_time(Rendering::Exact));
        assert_eq!(exact, T::exact_schema());
        assert_eq!(input, T::input_schema());
    }
    same::<Quoted>(Quoted::INPUT_SCHEMA, Quoted::EXACT_SCHEMA);
    same::<Documented>(Documented::INPUT_SCHEMA, Documented::EXACT_SCHEMA);
    same::<Disagreeing>(Disagreeing::INPUT_SCHEMA, Disagreeing::EXACT_SCHEMA);
}

/// A tone, its values documented.
#[derive(Contract, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Tone {
    /// A light shade.
    ///
    /// Not quite white.
    Gray,
    /// The darkest
    Black,
    White,
}

/// Operations sharing a key of a documented enum, two of them documenting it differently.
#[derive(Contract, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
#[allow(dead_code)]
enum Paint {
    Wall {
        /// The wall's tone.
        tone: Tone,
    },
    Door {
        /// The door's tone.
        tone: Tone,
    },
    Floor {
        tone: Tone,
    },
}

#[test]
fn an_enums_value_docs_are_said_wherever_it_is_written() {
    let meanings = "gray: A light shade; black: The darkest.";
    assert_eq!(json(Tone::INPUT_SCHEMA)["description"], meanings);
    for &dialect in stitch::Dialect::ALL {
        let shown = json(stitch::schema_of::<Paint>(stitch::Rendering::Flat(dialect)));
        let text = shown["properties"]["tone"]["description"]
            .as_str()
            .unwrap_or_default();
        assert!(
            text.starts_with("wall: The wall's tone. door: The door's tone.")
                && text.contains(meanings),
            "{dialect}: {text}"
        );
    }
}

every_contract_here!(
    Quoted,
    EscapedLater,
    Sparse,
    Documented,
    Disagreeing,
    Tone,
    Paint
);
