//! Every spelling the build step's help recommends compiles, on types that
//! are not a tool's argument struct.

use std::cell::Cell;

/// A type the build step cannot read: its schema is given verbatim.
#[mcp_contract_macros::schema(r#"{"type": "string", "pattern": "^tok_[a-z0-9]+$"}"#)]
#[derive(Debug)]
pub struct Token(Cell<u8>);

/// Derived, except one field given verbatim.
#[mcp_contract_macros::schema]
#[derive(Debug)]
pub struct Window {
    #[mcp_contract(schema = r#"{"type": "string", "format": "duration"}"#)]
    pub length: std::time::Duration,
    pub label: String,
}

/// An enum: fields of its variants may be given verbatim.
#[mcp_contract_macros::schema]
pub enum Shape {
    Circle {
        #[mcp_contract(schema = r#"{"type": "number"}"#)]
        radius: Cell<f64>,
    },
    Square(#[mcp_contract(schema = r#"{"type": "number"}"#)] Cell<f64>),
}

/// The whole enum given verbatim.
#[mcp_contract_macros::schema(r#"{"enum": ["a", "b"]}"#)]
pub enum Letter {
    A,
    B,
}

fn main() {
    let w = Window {
        length: std::time::Duration::from_secs(1),
        label: String::new(),
    };
    let _ = (Token(Cell::new(0)), w, Letter::A, Letter::B);
    let _ = [Shape::Circle { radius: Cell::new(1.0) }, Shape::Square(Cell::new(2.0))];
}
