use mcp_contract::diff::{diff_surfaces, Direction};
use mcp_contract::{Surface, Tool};
use serde_json::{json, Value};
fn surface(schema: &Value, dir: Direction) -> Surface {
    let mut t = Tool::new("t");
    match dir {
        Direction::Input => t.input_schema = schema.clone(),
        Direction::Output => t.output_schema = Some(schema.clone()),
    }
    let mut s = Surface::new();
    s.insert(t);
    s
}
#[test]
fn probe() {
    let Ok(f) = std::env::var("PROBE") else {
        return;
    };
    for l in std::fs::read_to_string(f).unwrap().lines() {
        let p: Value = serde_json::from_str(l).unwrap();
        let wrap = |v: &Value| json!({"type":"object","properties":{"v":v},"required":["v"]});
        let (o, n) = (wrap(&p["old"]), wrap(&p["new"]));
        for dir in [Direction::Input, Direction::Output] {
            let r = diff_surfaces(&surface(&o, dir), &surface(&n, dir));
            for c in &r.changes {
                println!(
                    "{dir:?} {:?} {} {} {}",
                    c.severity, c.rule, c.pointer, c.message
                );
            }
        }
        println!("--");
    }
}
