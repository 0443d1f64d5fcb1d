//! A literal `catch` fallback held to the field's own rules: `#[contract(min = 5, catch = 0)]`
//! would hand the tool a value the schema a model reads forbids, so it is refused at the
//! fallback. Each rule is judged as `parse` judges it (the keyword table's `Check`, its
//! `Relation`, the pattern as stitch compiles it). A fallback that is not a literal, and a
//! `multiple_of` (which `parse` judges in exact decimal), are the author's to keep.

use darling::Error;
use darling::error::Accumulator;
use stitch_rules::{Attribute, Check, Counted};

use crate::model::{Step, StepValue};

/// A literal fallback: a number (perhaps negative) or a string.
enum Literal {
    Number(f64),
    Text(String),
}

/// Refuses a literal `catch` fallback that breaks one of the field's other attributes.
pub fn check(steps: &[Step], errors: &mut Accumulator) {
    let Some((fallback, span)) = steps.iter().find_map(|step| match &step.value {
        StepValue::Catch(expr) => literal(expr).map(|literal| (literal, step.span)),
        _ => None,
    }) else {
        return;
    };
    for step in steps {
        if let Some(broken) = breaks(&fallback, step) {
            let message = format!(
                "the `catch` fallback breaks the field's own `{broken}`: the tool would get a \
                 value its schema forbids; give a fallback within the field's rules"
            );
            errors.push(Error::custom(message).with_span(&span));
        }
    }
}

/// The attribute (as written) the fallback breaks, if it breaks this step's.
fn breaks(fallback: &Literal, step: &Step) -> Option<String> {
    let attribute = |value: &dyn std::fmt::Display| format!("{} = {value}", step.attribute.name());
    match (&step.value, fallback) {
        (StepValue::Bound { json, value, .. }, Literal::Number(number)) => {
            let Attribute::Keyword(keyword) = step.attribute else {
                return None;
            };
            match keyword.spec().check {
                Check::Bound(relation) if !relation.holds(*number, *value) => Some(attribute(json)),
                _ => None,
            }
        }
        (StepValue::Count(limit), Literal::Text(text)) => {
            let Attribute::Keyword(keyword) = step.attribute else {
                return None;
            };
            let characters = text.chars().count() as u64;
            match keyword.spec().check {
                Check::Count(true, Counted::Characters) if characters < *limit => {
                    Some(attribute(limit))
                }
                Check::Count(false, Counted::Characters) if characters > *limit => {
                    Some(attribute(limit))
                }
                _ => None,
            }
        }
        (StepValue::Text(pattern), Literal::Text(text)) if matches!(step.attribute, Attribute::Keyword(keyword) if matches!(keyword.spec().check, Check::Pattern)) =>
        {
            let compiled = stitch_rules::pattern::compiled(pattern).ok()?;
            (!compiled.is_match(text)).then(|| attribute(&format!("{pattern:?}")))
        }
        (StepValue::Texts(values), Literal::Text(text)) if !values.contains(text) => {
            let quoted: Vec<String> = values.iter().map(|value| format!("{value:?}")).collect();
            Some(format!("values({})", quoted.join(", ")))
        }
        _ => None,
    }
}

/// A string literal's text.
fn text(expr: &syn::Expr) -> Option<Literal> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Some(Literal::Text(text.value())),
        _ => None,
    }
}

/// The fallback, where it is a literal number or string (a `String` made of one).
fn literal(expr: &syn::Expr) -> Option<Literal> {
    match expr {
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Int(int) => int.base10_parse::<f64>().ok().map(Literal::Number),
            syn::Lit::Float(float) => float.base10_parse::<f64>().ok().map(Literal::Number),
            syn::Lit::Str(text) => Some(Literal::Text(text.value())),
            _ => None,
        },
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => match literal(expr)? {
            Literal::Number(number) => Some(Literal::Number(-number)),
            Literal::Text(_) => None,
        },
        syn::Expr::Paren(syn::ExprParen { expr, .. })
        | syn::Expr::Group(syn::ExprGroup { expr, .. }) => literal(expr),
        // A `String` from a literal: `"x".to_owned()`, `"x".into()`, `String::from("x")`.
        syn::Expr::MethodCall(call)
            if call.args.is_empty()
                && ["to_owned", "to_string", "into"]
                    .iter()
                    .any(|name| call.method == name) =>
        {
            text(&call.receiver)
        }
        syn::Expr::Call(call) if call.args.len() == 1 && is_from(&call.func) => text(&call.args[0]),
        _ => None,
    }
}

/// Whether a function is `from` (`String::from`).
fn is_from(func: &syn::Expr) -> bool {
    matches!(func, syn::Expr::Path(path)
        if path.path.segments.last().is_some_and(|last| last.ident == "from"))
}
