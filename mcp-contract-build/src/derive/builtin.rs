//! The types schemars implements `JsonSchema` for itself (std, serde_json,
//! and with its `chrono04`/`uuid1`/`url2` features chrono, uuid and url):
//! their schema, schema name, inlining and `Default` value, exactly as
//! schemars 1.x renders them.

use serde_json::{json, Value};

use super::Contract;

/// A type whose schema does not depend on anything but itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prim {
    Str,
    Bool,
    F32,
    F64,
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
    Unit,
    Char,
    PathBuf,
    Ipv4,
    Ipv6,
    Ip,
    SocketAddr,
    JsonValue,
    JsonNumber,
    Uuid,
    Url,
    DateTime(Tz),
    NaiveDate,
    NaiveDateTime,
    NaiveTime,
    Weekday,
    TimeDelta,
    NonZero(NonZero),
    Duration,
    SystemTime,
    OsString,
    CString,
    /// `semver::Version`
    SemVer,
    /// `rust_decimal::Decimal`, `bigdecimal::BigDecimal`
    Decimal,
    /// `bytes::Bytes`, `bytes::BytesMut`
    Bytes,
    /// A `jiff` type: its schema name and string format.
    Jiff(&'static str, &'static str),
}

/// The time zone parameter of `chrono::DateTime`, which only matters for its default value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tz {
    Utc,
    Fixed,
    Other,
}

/// The integer inside a `NonZero*` type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NonZero {
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
}

impl NonZero {
    fn prim(self) -> Prim {
        match self {
            NonZero::I8 => Prim::I8,
            NonZero::I16 => Prim::I16,
            NonZero::I32 => Prim::I32,
            NonZero::I64 => Prim::I64,
            NonZero::I128 => Prim::I128,
            NonZero::Isize => Prim::Isize,
            NonZero::U8 => Prim::U8,
            NonZero::U16 => Prim::U16,
            NonZero::U32 => Prim::U32,
            NonZero::U64 => Prim::U64,
            NonZero::U128 => Prim::U128,
            NonZero::Usize => Prim::Usize,
        }
    }

    fn from_prim(p: Prim) -> Option<Self> {
        Some(match p {
            Prim::I8 => NonZero::I8,
            Prim::I16 => NonZero::I16,
            Prim::I32 => NonZero::I32,
            Prim::I64 => NonZero::I64,
            Prim::I128 => NonZero::I128,
            Prim::Isize => NonZero::Isize,
            Prim::U8 => NonZero::U8,
            Prim::U16 => NonZero::U16,
            Prim::U32 => NonZero::U32,
            Prim::U64 => NonZero::U64,
            Prim::U128 => NonZero::U128,
            Prim::Usize => NonZero::Usize,
            _ => return None,
        })
    }
}

impl Prim {
    /// Whether schemars inlines the schema instead of adding it to `$defs`.
    pub(crate) fn inline(self) -> bool {
        !matches!(
            self,
            Prim::Duration
                | Prim::SystemTime
                | Prim::OsString
                | Prim::CString
                | Prim::SemVer
                | Prim::Bytes
        )
    }

    /// `JsonSchema::schema_name()`.
    pub(crate) fn name(self) -> String {
        match self {
            Prim::Str | Prim::PathBuf | Prim::SocketAddr => "string".into(),
            Prim::Bool => "boolean".into(),
            Prim::Unit => "null".into(),
            Prim::Char => "Character".into(),
            Prim::Ipv4 => "ipv4".into(),
            Prim::Ipv6 => "ipv6".into(),
            Prim::Ip => "ip".into(),
            Prim::JsonValue => "AnyValue".into(),
            Prim::JsonNumber => "Number".into(),
            Prim::Uuid => "Uuid".into(),
            Prim::Url => "Url".into(),
            Prim::DateTime(_) => "DateTime".into(),
            Prim::NaiveDate => "NaiveDate".into(),
            Prim::NaiveDateTime => "NaiveDateTime".into(),
            Prim::NaiveTime => "NaiveTime".into(),
            Prim::Weekday => "Weekday".into(),
            Prim::TimeDelta => "TimeDelta".into(),
            Prim::NonZero(n) => format!("NonZero{}", n.prim().rust_name().to_uppercase_first()),
            Prim::Duration => "Duration".into(),
            Prim::SystemTime => "SystemTime".into(),
            Prim::OsString => "OsString".into(),
            Prim::CString => "CString".into(),
            Prim::SemVer => "SemVer".into(),
            Prim::Decimal => "Decimal".into(),
            Prim::Bytes => "Bytes".into(),
            Prim::Jiff(name, _) => name.into(),
            int_or_float => int_or_float.format().unwrap_or("number").into(),
        }
    }

    /// `JsonSchema::schema_id()`: two types with equal ids share one definition.
    pub(crate) fn id(self) -> String {
        match self {
            Prim::Char => "char".into(),
            Prim::Uuid => "uuid::Uuid".into(),
            Prim::Url => "url::Url".into(),
            Prim::DateTime(_) => "chrono::DateTime".into(),
            Prim::NaiveDate => "chrono::NaiveDate".into(),
            Prim::NaiveDateTime => "chrono::NaiveDateTime".into(),
            Prim::NaiveTime => "chrono::NaiveTime".into(),
            Prim::Weekday => "chrono::Weekday".into(),
            Prim::TimeDelta => "chrono::TimeDelta".into(),
            Prim::NonZero(_) => format!("std::num::{}", self.name()),
            Prim::Duration => "std::time::Duration".into(),
            Prim::SystemTime => "std::time::SystemTime".into(),
            Prim::OsString => "std::ffi::OsString".into(),
            Prim::CString => "std::ffi::CString".into(),
            Prim::SemVer => "semver::Version".into(),
            Prim::Bytes => "bytes::Bytes".into(),
            Prim::Jiff(name, _) => format!("jiff::{name}"),
            _ => self.name(),
        }
    }

    fn rust_name(self) -> &'static str {
        match self {
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::I128 => "i128",
            Prim::Isize => "isize",
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::U128 => "u128",
            Prim::Usize => "usize",
            _ => "",
        }
    }

    fn format(self) -> Option<&'static str> {
        Some(match self {
            Prim::F32 => "float",
            Prim::F64 => "double",
            Prim::I8 => "int8",
            Prim::I16 => "int16",
            Prim::I32 => "int32",
            Prim::I64 => "int64",
            Prim::I128 => "int128",
            Prim::Isize => "int",
            Prim::U8 => "uint8",
            Prim::U16 => "uint16",
            Prim::U32 => "uint32",
            Prim::U64 => "uint64",
            Prim::U128 => "uint128",
            Prim::Usize => "uint",
            _ => return None,
        })
    }

    pub(crate) fn is_integer(self) -> bool {
        !self.rust_name().is_empty()
    }

    pub(crate) fn is_float(self) -> bool {
        matches!(self, Prim::F32 | Prim::F64)
    }

    /// `JsonSchema::json_schema()`.
    pub(crate) fn schema(self, contract: Contract) -> Value {
        match self {
            Prim::Str | Prim::PathBuf | Prim::SocketAddr => json!({"type": "string"}),
            Prim::Bool => json!({"type": "boolean"}),
            Prim::Unit => json!({"type": "null"}),
            Prim::F32 | Prim::F64 | Prim::I32 | Prim::I64 | Prim::I128 | Prim::Isize => {
                json!({"type": if self.is_float() { "number" } else { "integer" }, "format": self.format()})
            }
            Prim::I8 => {
                json!({"type": "integer", "format": "int8", "minimum": i8::MIN, "maximum": i8::MAX})
            }
            Prim::I16 => {
                json!({"type": "integer", "format": "int16", "minimum": i16::MIN, "maximum": i16::MAX})
            }
            Prim::U8 => {
                json!({"type": "integer", "format": "uint8", "minimum": u8::MIN, "maximum": u8::MAX})
            }
            Prim::U16 => {
                json!({"type": "integer", "format": "uint16", "minimum": u16::MIN, "maximum": u16::MAX})
            }
            Prim::U32 | Prim::U64 | Prim::U128 | Prim::Usize => {
                json!({"type": "integer", "format": self.format(), "minimum": 0})
            }
            Prim::Char => json!({"type": "string", "minLength": 1, "maxLength": 1}),
            Prim::Ipv4 => json!({"type": "string", "format": "ipv4"}),
            Prim::Ipv6 => json!({"type": "string", "format": "ipv6"}),
            Prim::Ip => json!({"type": "string", "format": "ip"}),
            Prim::JsonValue => Value::Bool(true),
            Prim::JsonNumber => json!({"type": "number"}),
            Prim::Uuid => json!({"type": "string", "format": "uuid"}),
            Prim::Url => json!({"type": "string", "format": "uri"}),
            Prim::DateTime(_) => json!({"type": "string", "format": "date-time"}),
            Prim::NaiveDate => json!({"type": "string", "format": "date"}),
            Prim::NaiveDateTime => json!({"type": "string", "format": "partial-date-time"}),
            Prim::NaiveTime => json!({"type": "string", "format": "partial-time"}),
            Prim::Weekday => {
                json!({"type": "string", "enum": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]})
            }
            Prim::TimeDelta => json!({
                "type": "array",
                "prefixItems": [
                    {"type": "integer", "format": "int64"},
                    {"type": "integer", "minimum": 0, "exclusiveMaximum": 1_000_000_000}
                ],
                "minItems": 2,
                "maxItems": 2
            }),
            Prim::NonZero(n) => {
                let p = n.prim();
                let mut s = p.schema(contract);
                if let Value::Object(o) = &mut s {
                    if matches!(
                        p,
                        Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64 | Prim::U128 | Prim::Usize
                    ) {
                        o.insert("minimum".into(), 1.into());
                    } else {
                        o.insert("not".into(), json!({"const": 0}));
                    }
                }
                s
            }
            Prim::Duration => json!({
                "type": "object",
                "required": ["secs", "nanos"],
                "properties": {"secs": Prim::U64.schema(contract), "nanos": Prim::U32.schema(contract)}
            }),
            Prim::SystemTime => json!({
                "type": "object",
                "required": ["secs_since_epoch", "nanos_since_epoch"],
                "properties": {
                    "secs_since_epoch": Prim::U64.schema(contract),
                    "nanos_since_epoch": Prim::U32.schema(contract)
                }
            }),
            Prim::OsString => json!({
                "oneOf": [
                    {"type": "object", "properties": {"Unix": {"type": "array", "items": Prim::U8.schema(contract)}}, "required": ["Unix"]},
                    {"type": "object", "properties": {"Windows": {"type": "array", "items": Prim::U16.schema(contract)}}, "required": ["Windows"]}
                ]
            }),
            Prim::CString => json!({
                "type": if contract == Contract::Deserialize { json!(["array", "string"]) } else { json!("array") },
                "items": {"type": "integer", "minimum": 1, "maximum": 255}
            }),
            Prim::SemVer | Prim::Decimal | Prim::Bytes | Prim::Jiff(..) => {
                self.schema_extra(contract)
            }
        }
    }

    fn schema_extra(self, contract: Contract) -> Value {
        let de = contract == Contract::Deserialize;
        match self {
            Prim::SemVer => json!({
                "type": "string",
                "pattern": r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
            }),
            Prim::Decimal if de => {
                json!({"type": ["string", "number"], "pattern": r"^-?\d+(\.\d+)?([eE]\d+)?$"})
            }
            Prim::Decimal => json!({"type": "string", "pattern": r"^-?\d+(\.\d+)?$"}),
            Prim::Bytes => json!({
                "type": if de { json!(["array", "string"]) } else { json!("array") },
                "items": Prim::U8.schema(contract)
            }),
            Prim::Jiff(_, format) => json!({"type": "string", "format": format}),
            _ => Value::Null,
        }
    }

    /// `serde_json::to_value(<T>::default())`, when `T: Default`.
    pub(crate) fn default_value(self) -> Option<Value> {
        Some(match self {
            Prim::Str | Prim::PathBuf => json!(""),
            Prim::Bool => json!(false),
            Prim::F32 | Prim::F64 => json!(0.0),
            Prim::Unit | Prim::JsonValue => Value::Null,
            Prim::Char => json!("\u{0}"),
            Prim::Uuid => json!("00000000-0000-0000-0000-000000000000"),
            Prim::DateTime(Tz::Utc) => json!("1970-01-01T00:00:00Z"),
            Prim::DateTime(Tz::Fixed) => json!("1970-01-01T00:00:00+00:00"),
            Prim::NaiveDate => json!("1970-01-01"),
            Prim::NaiveDateTime => json!("1970-01-01T00:00:00"),
            Prim::NaiveTime => json!("00:00:00"),
            Prim::Duration => json!({"secs": 0, "nanos": 0}),
            Prim::TimeDelta => json!([0, 0]),
            p if p.is_integer() => json!(0),
            _ => return None,
        })
    }
}

trait UpperFirst {
    fn to_uppercase_first(&self) -> String;
}

impl UpperFirst for str {
    fn to_uppercase_first(&self) -> String {
        let mut c = self.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c).collect(),
            None => String::new(),
        }
    }
}

/// What a path into another crate (or the prelude) names, by its last segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Known {
    Prim(Prim),
    /// `Option<T>`
    Option,
    /// `Vec<T>`, `VecDeque<T>`, `[T]`...
    Seq,
    /// `HashSet<T>`, `BTreeSet<T>`
    Set,
    /// `HashMap<K, V>`, `BTreeMap<K, V>`
    Map,
    /// `serde_json::Map<String, Value>` and `rmcp::model::JsonObject`
    JsonObject,
    /// `Box<T>`, `Arc<T>`, `Cow<T>`... : the schema of `T`
    Wrapper,
    Result,
    Range,
    Bound,
    /// `PhantomData<T>`: the schema of `()`
    Phantom,
    /// `NonZeroU32`...
    NonZero(NonZero),
    /// A `chrono` time zone (only used as `DateTime`'s parameter).
    TimeZone(Tz),
    /// `either::Either<L, R>`
    Either,
    /// `smallvec::SmallVec<[T; N]>`: the schema of `Vec<T>`
    SmallVec,
    /// `arrayvec::ArrayVec<T, CAP>`
    ArrayVec,
}

fn primitive(name: &str) -> Option<Prim> {
    Some(match name {
        "str" => Prim::Str,
        "bool" => Prim::Bool,
        "char" => Prim::Char,
        "f32" => Prim::F32,
        "f64" => Prim::F64,
        "i8" => Prim::I8,
        "i16" => Prim::I16,
        "i32" => Prim::I32,
        "i64" => Prim::I64,
        "i128" => Prim::I128,
        "isize" => Prim::Isize,
        "u8" => Prim::U8,
        "u16" => Prim::U16,
        "u32" => Prim::U32,
        "u64" => Prim::U64,
        "u128" => Prim::U128,
        "usize" => Prim::Usize,
        _ => return None,
    })
}

const REEXPORTING_CRATES: &[&str] = &["rmcp", "schemars"];
const KNOWN_CRATES: &[&str] = &[
    "std",
    "core",
    "alloc",
    "serde_json",
    "chrono",
    "uuid",
    "url",
];

/// Classifies an external path (`std::collections::HashMap`, `serde_json::Value`,
/// `rmcp::serde_json::Value`, a prelude name such as `String`...).
pub(crate) fn known(path: &[String]) -> Option<Known> {
    let last = path.last()?.as_str();
    if path.len() == 1 {
        if let Some(p) = primitive(last) {
            return Some(Known::Prim(p));
        }
        return Some(match last {
            "String" => Known::Prim(Prim::Str),
            "Vec" => Known::Seq,
            "Option" => Known::Option,
            "Box" => Known::Wrapper,
            "Result" => Known::Result,
            _ => return None,
        });
    }
    let mut start = 0;
    if REEXPORTING_CRATES.contains(&path[0].as_str()) {
        if path.len() == 3 && path[0] == "rmcp" && path[1] == "model" && last == "JsonObject" {
            return Some(Known::JsonObject);
        }
        start = path
            .iter()
            .position(|s| KNOWN_CRATES.contains(&s.as_str()))?;
    }
    let krate = path[start].as_str();
    match krate {
        "std" | "core" | "alloc" => std_type(last),
        "serde_json" => Some(match last {
            "Value" => Known::Prim(Prim::JsonValue),
            "Number" => Known::Prim(Prim::JsonNumber),
            "Map" => Known::JsonObject,
            _ => return None,
        }),
        "chrono" => Some(match last {
            "DateTime" => Known::Prim(Prim::DateTime(Tz::Other)),
            "NaiveDate" => Known::Prim(Prim::NaiveDate),
            "NaiveDateTime" => Known::Prim(Prim::NaiveDateTime),
            "NaiveTime" => Known::Prim(Prim::NaiveTime),
            "Weekday" => Known::Prim(Prim::Weekday),
            "TimeDelta" | "Duration" => Known::Prim(Prim::TimeDelta),
            "Utc" => Known::TimeZone(Tz::Utc),
            "FixedOffset" => Known::TimeZone(Tz::Fixed),
            "Local" => Known::TimeZone(Tz::Other),
            _ => return None,
        }),
        "uuid" if last == "Uuid" => Some(Known::Prim(Prim::Uuid)),
        "indexmap" if last == "IndexMap" => Some(Known::Map),
        "indexmap" if last == "IndexSet" => Some(Known::Set),
        "semver" if last == "Version" => Some(Known::Prim(Prim::SemVer)),
        "rust_decimal" | "bigdecimal" if last == "Decimal" || last == "BigDecimal" => {
            Some(Known::Prim(Prim::Decimal))
        }
        "bytes" if last == "Bytes" || last == "BytesMut" => Some(Known::Prim(Prim::Bytes)),
        "either" if last == "Either" => Some(Known::Either),
        "smallvec" if last == "SmallVec" => Some(Known::SmallVec),
        "smol_str" if last == "SmolStr" => Some(Known::Prim(Prim::Str)),
        "arrayvec" if last == "ArrayString" => Some(Known::Prim(Prim::Str)),
        "arrayvec" if last == "ArrayVec" => Some(Known::ArrayVec),
        "jiff" => Some(Known::Prim(match last {
            "SignedDuration" => Prim::Jiff("SignedDuration", "duration"),
            "Span" => Prim::Jiff("Span", "duration"),
            "Timestamp" => Prim::Jiff("Timestamp", "date-time"),
            "Zoned" => Prim::Jiff("Zoned", "zoned-date-time"),
            "Date" => Prim::Jiff("Date", "date"),
            "Time" => Prim::Jiff("Time", "partial-time"),
            "DateTime" => Prim::Jiff("DateTime", "partial-date-time"),
            _ => return None,
        })),
        "url" if last == "Url" => Some(Known::Prim(Prim::Url)),
        _ => None,
    }
}

fn std_type(last: &str) -> Option<Known> {
    if let Some(p) = primitive(last) {
        return Some(Known::Prim(p));
    }
    if let Some(rest) = last.strip_prefix("NonZero") {
        return primitive(&rest.to_lowercase())
            .and_then(NonZero::from_prim)
            .map(Known::NonZero);
    }
    Some(match last {
        "String" => Known::Prim(Prim::Str),
        "PathBuf" | "Path" => Known::Prim(Prim::PathBuf),
        "Ipv4Addr" => Known::Prim(Prim::Ipv4),
        "Ipv6Addr" => Known::Prim(Prim::Ipv6),
        "IpAddr" => Known::Prim(Prim::Ip),
        "SocketAddr" | "SocketAddrV4" | "SocketAddrV6" => Known::Prim(Prim::SocketAddr),
        "Duration" => Known::Prim(Prim::Duration),
        "SystemTime" => Known::Prim(Prim::SystemTime),
        "OsString" | "OsStr" => Known::Prim(Prim::OsString),
        "CString" | "CStr" => Known::Prim(Prim::CString),
        "Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" => Known::Seq,
        "HashSet" | "BTreeSet" => Known::Set,
        "HashMap" | "BTreeMap" => Known::Map,
        "Option" => Known::Option,
        "Result" => Known::Result,
        "Box" | "Rc" | "Arc" | "Cow" | "Cell" | "RefCell" | "Mutex" | "RwLock" | "Wrapping"
        | "Reverse" => Known::Wrapper,
        "Range" | "RangeInclusive" => Known::Range,
        "Bound" => Known::Bound,
        "PhantomData" => Known::Phantom,
        _ => return None,
    })
}

/// Whether `path` (an external path reached through a glob import) names a type we know.
pub(crate) fn is_known_external(path: &[String]) -> bool {
    path.len() > 1 && known(path).is_some()
}
