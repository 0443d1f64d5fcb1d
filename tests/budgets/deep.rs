// The levels under a contract whose objects nest 12 levels deep (two past OpenAI strict
// mode's 10; the contract's own properties are level 1) and one 10 deep (at it): each level a
// struct whose one property holds the next.
#![allow(
    dead_code,
    reason = "the fields are read by the schema, not by the tests"
)]

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve2 {
    pub next: Twelve3,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve3 {
    pub next: Twelve4,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve4 {
    pub next: Twelve5,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve5 {
    pub next: Twelve6,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve6 {
    pub next: Twelve7,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve7 {
    pub next: Twelve8,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve8 {
    pub next: Twelve9,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve9 {
    pub next: Twelve10,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve10 {
    pub next: Twelve11,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve11 {
    pub next: Twelve12,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Twelve12 {
    pub leaf: u8,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten2 {
    pub next: Ten3,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten3 {
    pub next: Ten4,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten4 {
    pub next: Ten5,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten5 {
    pub next: Ten6,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten6 {
    pub next: Ten7,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten7 {
    pub next: Ten8,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten8 {
    pub next: Ten9,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten9 {
    pub next: Ten10,
}

#[derive(stitch::Shape, serde::Deserialize)]
pub struct Ten10 {
    pub leaf: u8,
}
