//! A rejection's size is bounded by a constant, not by its call: at most
//! `Rejection::MAX_ISSUES` issues (the walk stops at the next one, and the rejection says
//! there are more), and a list of valid operations or keys given once, not once per item.

mod common;

#[path = "../examples/contracts/broadcast_patch.rs"]
mod broadcast_patch;

use broadcast_patch::BroadcastPatch;
use serde::Deserialize;
use serde_json::{Value, json};
use stitch::{Contract, Rejection};

/// Numbers, with a caught list beside them.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Numbers {
    values: Vec<u8>,
    #[contract(catch = Vec::new())]
    optional: Vec<u8>,
}

/// An externally tagged command.
#[allow(dead_code, reason = "its fields are deserialized, never read")]
#[derive(Contract, Deserialize, Debug)]
#[serde(rename_all = "lowercase")]
enum Command {
    Start { at: u32 },
    Stop,
}

/// A list of commands.
#[derive(Contract, Deserialize, Debug)]
struct Commands {
    commands: Vec<Command>,
}

fn rejected<C: Contract + std::fmt::Debug>(args: Value) -> Rejection {
    C::parse(args).expect_err("the call is bad")
}

#[test]
fn a_hundred_thousand_bad_operations_are_answered_in_a_few_kilobytes() {
    let call = json!({"broadcastId": "b1", "operations": vec![json!({}); 100_000]});
    let call_size = call.to_string().len();
    let rejection = rejected::<BroadcastPatch>(call);
    assert_eq!(rejection.issues.len(), Rejection::MAX_ISSUES);
    assert!(rejection.truncated);
    let answer = rejection.to_tool_result().to_string();
    assert!(
        answer.len() < 16 * 1024,
        "{} bytes answer {call_size} bytes of call",
        answer.len()
    );
    assert!(answer.contains("there are more"), "{answer}");
    assert_eq!(
        answer.matches("setText, setButton").count(),
        2,
        "once in text, once in data"
    );
    assert_eq!(rejection.issues[0].code.as_str(), "max_items");
    assert!(
        rejection.issues[2]
            .message
            .ends_with("valid: as listed at /operations/0/op"),
        "{}",
        rejection.issues[2].message
    );
    assert_eq!(
        rejection.to_tool_result()["structuredContent"]["truncated"],
        true
    );
}

#[test]
fn the_cap_holds_exactly_and_says_so_only_past_it() {
    let bad = |count: usize| json!({"values": vec![json!(-1); count], "optional": []});
    let at_cap = rejected::<Numbers>(bad(Rejection::MAX_ISSUES));
    assert_eq!(
        (at_cap.issues.len(), at_cap.truncated),
        (Rejection::MAX_ISSUES, false)
    );
    assert!(!at_cap.to_string().contains("there are more"));
    assert!(
        at_cap.to_tool_result()["structuredContent"]
            .get("truncated")
            .is_none()
    );
    let past = rejected::<Numbers>(bad(Rejection::MAX_ISSUES + 1));
    assert_eq!(
        (past.issues.len(), past.truncated),
        (Rejection::MAX_ISSUES, true)
    );
    let last = &past.issues[Rejection::MAX_ISSUES - 1];
    assert_eq!(
        last.pointer,
        format!("/values/{}", Rejection::MAX_ISSUES - 1)
    );
}

#[test]
fn a_caught_value_past_the_cap_is_still_caught() {
    // The caught list holds more bad items than the cap: it is replaced, and the walk goes on
    // to find the one real issue after it.
    let call = json!({"optional": vec![json!("x"); 50], "values": [1, "two"]});
    let rejection = rejected::<Numbers>(call);
    assert_eq!(rejection.issues.len(), 1, "{rejection}");
    assert_eq!(rejection.issues[0].pointer, "/values/1");
    assert!(!rejection.truncated);
    let fine = Numbers::parse(json!({"optional": vec![json!("x"); 50], "values": [1]}));
    assert_eq!(fine.unwrap().optional, Vec::<u8>::new());
}

#[test]
fn unknown_keys_and_operations_list_what_is_accepted_once() {
    let mut many = serde_json::Map::new();
    many.insert("values".into(), json!([1]));
    for i in 0..5 {
        many.insert(format!("extra{i}"), json!(i));
    }
    let rejection = rejected::<Numbers>(Value::Object(many));
    let accepted: Vec<&str> = rejection
        .issues
        .iter()
        .map(|issue| {
            issue
                .message
                .rsplit("accepted: ")
                .next()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(accepted[0], "values, optional");
    assert!(
        accepted[1..].iter().all(|a| *a == "as listed at /extra0"),
        "{accepted:?}"
    );

    let commands =
        json!({"commands": [{"jump": {}}, {"fly": {}}, {"start": {"at": 1}, "stop": null}]});
    let rejection = rejected::<Commands>(commands);
    let messages: Vec<&str> = rejection
        .issues
        .iter()
        .map(|i| i.message.as_str())
        .collect();
    assert_eq!(
        messages[0],
        "unknown operation \"jump\"; valid: start, stop"
    );
    assert_eq!(
        messages[1],
        "unknown operation \"fly\"; valid: as listed at /commands/0/jump"
    );
    assert_eq!(
        messages[2],
        "send exactly one operation's key, got 2: start, stop"
    );
    let crowd: serde_json::Map<String, Value> =
        (0..1000).map(|i| (format!("op{i}"), json!({}))).collect();
    let rejection = rejected::<Commands>(json!({"commands": [crowd]}));
    assert!(
        rejection.issues[0].message.len() < 120,
        "the keys sent are shown, not all of them: {}",
        rejection.issues[0].message
    );
}

every_contract_here!(Numbers, Command, Commands);
