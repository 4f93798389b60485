//! Argument and result types for the schema parity test. This file is both
//! compiled into the test (so schemars derives their schemas) and parsed with
//! syn (so the source-level generator derives them); the two must agree.
//! Paths stay relative (no `crate::`) so they mean the same in both worlds.
#![allow(dead_code, clippy::enum_variant_names, clippy::empty_docs)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod literal;
pub mod more;
use self::more::{Config as MoreConfig, Priority};

/// Plain scalar fields.
#[derive(Deserialize, JsonSchema)]
pub struct Basic {
    /// The search query.
    pub query: String,
    pub exact: bool,
    pub limit: u32,
    pub offset: i64,
    pub ratio: f64,
    pub initial: char,
}

#[derive(Deserialize, JsonSchema)]
pub struct Integers {
    pub a: i8,
    pub b: i16,
    pub c: i32,
    pub d: i64,
    pub e: i128,
    pub f: isize,
    pub g: u8,
    pub h: u16,
    pub i: u32,
    pub j: u64,
    pub k: u128,
    pub l: usize,
    pub m: f32,
    pub n: std::num::NonZeroU32,
    pub o: core::num::NonZeroI64,
}

#[derive(Deserialize, JsonSchema)]
pub struct Inner {
    pub name: String,
    pub weight: Option<u16>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Optionals {
    pub a: Option<u8>,
    pub b: Option<Vec<String>>,
    pub c: Option<Option<i32>>,
    /// An optional nested struct.
    pub d: Option<Inner>,
    pub e: Option<serde_json::Value>,
    pub f: Option<char>,
    pub g: Option<Color>,
    pub h: Option<Box<Inner>>,
}

const DEFAULT_LIMIT: u32 = 25;

fn default_limit() -> u32 {
    DEFAULT_LIMIT
}

fn default_name() -> String {
    "anonymous".to_string()
}

fn default_tags() -> Vec<String> {
    vec!["a".into(), String::from("b")]
}

fn default_ratio() -> f32 {
    0.1
}

fn default_color() -> Color {
    Color::Blue
}

#[derive(Deserialize, JsonSchema)]
pub struct Defaults {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub count: u32,
    #[serde(default)]
    pub flag: bool,
    #[serde(default)]
    pub items: Vec<String>,
    #[serde(default)]
    pub maybe: Option<u32>,
    #[serde(default = "default_limit")]
    pub limit: u32,
    #[serde(default = "default_name")]
    pub name: String,
    #[serde(default = "default_tags")]
    pub tags: Vec<String>,
    #[serde(default = "default_ratio")]
    pub ratio: f32,
    #[serde(default = "default_color")]
    pub color: Color,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped_none: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_empty: Vec<u8>,
    #[serde(default)]
    pub inner: InnerWithDefault,
    #[serde(default)]
    pub opaque: NotSerialize,
}

#[derive(Deserialize, Serialize, JsonSchema, Default)]
pub struct InnerWithDefault {
    pub depth: u8,
    pub label: String,
    pub color: Color,
}

#[derive(Deserialize, JsonSchema, Default)]
pub struct NotSerialize {
    pub x: u8,
}

#[derive(Deserialize, JsonSchema, Default)]
#[serde(default)]
pub struct ContainerDefault {
    pub page: u32,
    pub size: u32,
    pub sort: Option<String>,
    pub desc: bool,
}

#[derive(Deserialize, JsonSchema)]
#[serde(default)]
pub struct ManualDefault {
    pub page: u32,
    pub size: u32,
    pub title: String,
    pub mode: Mode,
}

impl Default for ManualDefault {
    fn default() -> Self {
        ManualDefault {
            page: 1,
            size: 50,
            title: "untitled".to_owned(),
            mode: Mode::SlowPath,
        }
    }
}

#[derive(Deserialize, JsonSchema, Default)]
#[serde(default = "path_default")]
pub struct PathDefault {
    pub depth: u8,
    pub follow: bool,
    pub name: String,
}

fn path_default() -> PathDefault {
    PathDefault {
        depth: 3,
        ..Default::default()
    }
}

#[derive(Deserialize, Serialize, JsonSchema, Default, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    #[default]
    FastPath,
    SlowPath,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameAllCamel {
    pub file_path: String,
    pub max_line_count: u32,
    #[serde(rename = "URL")]
    pub url_field: String,
    pub r#type: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub struct RenamePascal {
    pub first_name: String,
    pub last_name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub struct RenameKebab {
    pub first_name: String,
    pub x_y_z: u8,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct RenameScreaming {
    pub first_name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub struct RenameScreamingKebab {
    pub first_name: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all(serialize = "UPPERCASE", deserialize = "lowercase"))]
pub struct RenameSerDe {
    pub first_name: String,
    #[serde(rename(serialize = "Out", deserialize = "in"))]
    pub both: u8,
}

#[derive(Deserialize, JsonSchema)]
pub struct CaseStyles {
    pub lower: LowerEnum,
    pub upper: UpperEnum,
    pub camel: CamelEnum,
    pub snake: SnakeEnum,
    pub screaming: ScreamingEnum,
    pub kebab: KebabEnum,
    pub screaming_kebab: ScreamingKebabEnum,
    pub pascal: PascalEnum,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LowerEnum {
    VeryTasty,
    A,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum UpperEnum {
    VeryTasty,
    A,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum CamelEnum {
    VeryTasty,
    A,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SnakeEnum {
    VeryTasty,
    Z42,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ScreamingEnum {
    VeryTasty,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KebabEnum {
    VeryTasty,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
pub enum ScreamingKebabEnum {
    VeryTasty,
}
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub enum PascalEnum {
    VeryTasty,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Skips {
    pub kept: String,
    #[serde(skip)]
    pub gone: u32,
    #[serde(skip_serializing)]
    pub write_only: String,
    #[serde(skip_deserializing)]
    pub read_only: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sometimes: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verbose: bool,
    #[schemars(skip)]
    pub hidden_from_schema: u8,
    #[serde(default, skip_serializing_if = "is_false")]
    pub quiet: bool,
    #[serde(default = "default_limit", skip_serializing_if = "is_zero")]
    pub page_size: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub label: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_default<T: Default + PartialEq>(t: &T) -> bool {
    *t == T::default()
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub id: u64,
    pub note: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Paging {
    pub page: u32,
    pub per_page: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Flattened {
    pub query: String,
    #[serde(flatten)]
    pub paging: Paging,
    #[serde(flatten)]
    pub extra_opt: Option<Inner>,
    #[serde(flatten)]
    pub rest: HashMap<String, serde_json::Value>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlattenedStrictEnum {
    pub id: u32,
    #[serde(flatten)]
    pub shape: Shape,
}

#[derive(Deserialize, Serialize, JsonSchema, Default, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    #[default]
    Red,
    Green,
    Blue,
}

/// A shape, externally tagged.
#[derive(Deserialize, JsonSchema)]
pub enum Shape {
    Empty,
    /// A circle with its radius.
    Circle(f64),
    Rect(u32, u32),
    Polygon {
        /// Corner points.
        points: Vec<(i32, i32)>,
        closed: bool,
    },
    #[serde(rename = "unit-documented")]
    /// A documented unit variant becomes a `const`.
    Documented,
}

#[derive(Deserialize, JsonSchema)]
pub struct ExternalEnumArgs {
    pub shape: Shape,
    pub shapes: Vec<Shape>,
    pub maybe_shape: Option<Shape>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictInner {
    pub a: u8,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    Create {
        name: String,
        #[serde(default)]
        public: bool,
    },
    Delete {
        id: u64,
    },
    Ping,
    Wrap(Inner),
    WrapStrict(StrictInner),
    WrapMap(HashMap<String, u8>),
}

#[derive(Deserialize, JsonSchema)]
pub struct InternalEnumArgs {
    pub action: Action,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
pub enum Event {
    Started,
    Progress(u8),
    Finished { ok: bool, message: Option<String> },
    Pair(String, u32),
}

#[derive(Deserialize, JsonSchema)]
pub struct AdjacentEnumArgs {
    pub event: Event,
}

#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Target {
    Id(u64),
    Name(String),
    /// Both identifiers.
    Both {
        id: u64,
        name: String,
    },
    Nothing,
}

#[derive(Deserialize, JsonSchema)]
pub struct UntaggedEnumArgs {
    pub target: Target,
    pub targets: Option<Vec<Target>>,
}

#[derive(Deserialize, JsonSchema)]
pub enum MixedUntagged {
    Known(u8),
    #[serde(untagged)]
    Other(String),
}

#[derive(Deserialize, JsonSchema)]
pub struct UnitEnumArgs {
    pub color: Color,
    pub priority: Priority,
    pub mixed: MixedUntagged,
    pub weekday: chrono::Weekday,
}

/// # Documented arguments
///
/// Everything here has a doc comment.
///   Indented continuation lines stay as they are.
#[derive(Deserialize, JsonSchema)]
pub struct DocComments {
    /// First line.
    ///
    /// Second paragraph.
    pub multi: String,
    /// # A title
    /// and a description
    pub titled: u8,
    ///
    pub empty_doc: bool,
    /** Block doc comment. */
    pub block: i32,
    #[doc = "Attribute doc."]
    pub attr_doc: u8,
}

const MAX_LEN: usize = 64;

#[derive(Deserialize, JsonSchema)]
pub struct Validated {
    #[schemars(range(min = 1, max = 100))]
    pub percent: u8,
    #[schemars(range(min = -1.5, max = 2.5))]
    pub factor: f64,
    #[schemars(length(min = 1, max = MAX_LEN))]
    pub name: String,
    #[schemars(length(min = 2))]
    pub tags: Vec<String>,
    #[schemars(length(equal = 3))]
    pub code: Option<String>,
    #[schemars(regex(pattern = r"^[a-z]+$"))]
    pub slug: String,
    #[schemars(email)]
    pub email: String,
    #[schemars(url)]
    pub homepage: String,
    #[validate(length(min = 5, max = 10), email)]
    pub validated_email: String,
    #[validate(range(min = 0, max = 10))]
    pub score: i32,
    #[validate(url)]
    pub link: Option<String>,
    #[schemars(contains(pattern = "a.b"))]
    pub must_contain: String,
    #[schemars(inner(length(max = 8)))]
    pub short_items: Vec<String>,
    #[schemars(required)]
    pub required_option: Option<u8>,
    #[schemars(pattern("^x"))]
    pub pattern_attr: String,
}

#[derive(Deserialize, JsonSchema)]
pub struct Collections {
    pub list: Vec<String>,
    pub fixed: [u8; 4],
    pub empty_array: [u8; 0],
    pub set: HashSet<String>,
    pub sorted: BTreeSet<u32>,
    pub map: HashMap<String, u32>,
    pub tree: BTreeMap<String, Inner>,
    pub boxed: Box<Inner>,
    pub shared: Arc<String>,
    pub rc: std::rc::Rc<Vec<u8>>,
    pub deque: VecDeque<bool>,
    pub cow: std::borrow::Cow<'static, str>,
    pub nested: Vec<Vec<Option<u8>>>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Tuples {
    pub pair: (String, u32),
    pub triple: (u8, Option<bool>, Inner),
    pub point: Point,
    pub unit: UnitStruct,
}

#[derive(Deserialize, JsonSchema)]
pub struct Point(pub i32, pub i32);

#[derive(Deserialize, JsonSchema)]
pub struct UnitStruct;

#[derive(Deserialize, JsonSchema)]
pub struct JsonValues {
    pub any: serde_json::Value,
    /// Any value, documented.
    pub documented_any: serde_json::Value,
    pub object: serde_json::Map<String, serde_json::Value>,
    pub values: Vec<serde_json::Value>,
    pub number: serde_json::Number,
}

#[derive(Deserialize, JsonSchema)]
pub struct Foreign {
    pub at: chrono::DateTime<chrono::Utc>,
    pub fixed: chrono::DateTime<chrono::FixedOffset>,
    pub day: chrono::NaiveDate,
    pub local: chrono::NaiveDateTime,
    pub time: chrono::NaiveTime,
    pub id: uuid::Uuid,
    pub link: url::Url,
    pub path: std::path::PathBuf,
    pub maybe_id: Option<uuid::Uuid>,
    pub ip: std::net::IpAddr,
    pub v4: std::net::Ipv4Addr,
    pub v6: std::net::Ipv6Addr,
    pub socket: std::net::SocketAddr,
    pub timeout: std::time::Duration,
}

/// A tree node.
#[derive(Deserialize, JsonSchema)]
pub struct Node {
    pub label: String,
    pub children: Vec<Node>,
    pub parent: Option<Box<Node>>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Dept {
    pub name: String,
    pub members: Vec<Person>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Person {
    pub name: String,
    pub dept: Option<Box<Dept>>,
}

#[derive(Deserialize, JsonSchema)]
pub struct MutualRecursion {
    pub root: Dept,
}

pub type Tags = Vec<String>;
pub type Id = u64;
pub type PairOf<T> = (T, T);
type Lookup<V> = HashMap<String, V>;

#[derive(Deserialize, JsonSchema)]
pub struct Aliases {
    pub tags: Tags,
    pub id: Id,
    pub range: PairOf<i32>,
    pub lookup: Lookup<Inner>,
    pub ids: Option<Vec<Id>>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
}

#[derive(Deserialize, JsonSchema)]
pub struct Generic {
    pub names: Page<String>,
    pub inners: Page<Inner>,
    pub names_again: Page<String>,
}

mod nested {
    use schemars::JsonSchema;
    use serde::Deserialize;

    #[derive(Deserialize, JsonSchema)]
    pub struct Config {
        pub nested_flag: bool,
    }

    pub mod deeper {
        use super::super::Inner;
        use schemars::JsonSchema;
        use serde::Deserialize;

        #[derive(Deserialize, JsonSchema)]
        pub struct Holder {
            pub inner: Inner,
            pub sibling: super::Config,
            pub top: self::Local,
        }

        #[derive(Deserialize, JsonSchema)]
        pub struct Local {
            pub x: u8,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
pub struct ModulePaths {
    pub a: nested::Config,
    pub b: MoreConfig,
    pub c: nested::deeper::Holder,
    pub d: more::Settings,
    pub e: self::nested::deeper::Local,
}

/// A transparent wrapper.
#[derive(Deserialize, JsonSchema, PartialEq, Eq, Hash)]
#[serde(transparent)]
pub struct UserId(pub u64);

#[derive(Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Plain(pub String);

#[derive(Deserialize, JsonSchema)]
pub struct Meters(pub f64);

#[derive(Deserialize, JsonSchema)]
pub struct Wrappers {
    pub user: UserId,
    pub plain: Plain,
    pub plain_opt: Option<Plain>,
    pub meters: Meters,
}

#[derive(Deserialize, JsonSchema)]
pub struct Deprecations {
    #[deprecated]
    pub old: Option<String>,
    pub new: String,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(title = "Custom title", description = "Custom description")]
pub struct Metadata {
    #[schemars(title = "Field title")]
    /// Doc description.
    pub titled: String,
    #[schemars(example = 5, example = 7)]
    pub with_examples: u32,
    #[schemars(extend("x-unit" = "ms", "x-weight" = 3))]
    pub extended: u64,
    #[schemars(description = "Overrides the doc.")]
    /// Ignored doc.
    pub described: bool,
}

#[derive(Deserialize, JsonSchema)]
pub struct WithAttrs {
    #[schemars(with = "String")]
    pub id_as_string: u64,
    #[schemars(with = "Vec<Inner>")]
    pub inners: HashSet<u8>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Command {
    StartJob {
        job_name: String,
        dry_run: bool,
    },
    #[serde(rename = "halt", rename_all = "UPPERCASE")]
    StopJob {
        job_name: String,
    },
    #[serde(skip)]
    Internal,
    #[serde(skip_deserializing)]
    OutputOnly,
}

#[derive(Deserialize, JsonSchema)]
pub struct RenameVariants {
    pub command: Command,
}

#[derive(Deserialize, JsonSchema)]
pub struct Level3 {
    pub color: Color,
    pub values: Vec<f32>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Level2 {
    pub level3: Level3,
    pub maybe: Option<Level3>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Nested {
    pub level2: Level2,
    pub list: Vec<Level2>,
}

#[derive(Deserialize, JsonSchema)]
pub struct MapKeys {
    pub by_color: HashMap<Color, u32>,
    pub by_number: BTreeMap<u32, String>,
    pub by_signed: BTreeMap<i64, bool>,
    pub by_id: HashMap<UserId, Inner>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(from = "String")]
pub struct FromString {
    pub value: String,
}

impl From<String> for FromString {
    fn from(value: String) -> Self {
        FromString { value }
    }
}

#[derive(Deserialize, JsonSchema)]
pub struct FromInto {
    pub converted: FromString,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Report {
    pub title: String,
    pub items: Vec<ReportItem>,
    pub summary: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default)]
    pub count: u32,
    #[serde(skip_deserializing)]
    pub generated: bool,
    pub status: Status,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct ReportItem {
    pub name: String,
    pub score: f64,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "state", rename_all = "UPPERCASE")]
pub enum Status {
    Ok,
    Failed { reason: String },
}

#[derive(Deserialize, JsonSchema)]
pub struct Results {
    pub outcome: Result<String, u32>,
    pub either: Vec<Result<u8, Inner>>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SerializeDefaults {
    #[serde(default)]
    pub nested: InnerWithDefault,
    #[serde(default = "default_mode")]
    pub mode: Mode,
    #[serde(default = "default_point")]
    pub point: (i32, i32),
    #[serde(default = "default_unset")]
    pub unset: Option<u8>,
}

fn default_unset() -> Option<u8> {
    None
}

fn default_mode() -> Mode {
    Mode::SlowPath
}

fn default_point() -> (i32, i32) {
    (1, -2)
}

#[derive(Deserialize, JsonSchema)]
#[schemars(inline)]
pub struct InlinedHelper {
    pub v: u8,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename = "RenamedType")]
pub struct OriginalName {
    pub v: u8,
}

#[derive(Deserialize, JsonSchema)]
pub struct NamingAndInlining {
    pub inlined: InlinedHelper,
    pub renamed: OriginalName,
    pub config_a: nested::Config,
    pub config_b: MoreConfig,
}

#[derive(Deserialize, JsonSchema)]
pub struct Empty {}

#[derive(Deserialize, JsonSchema)]
pub struct Sentinels {
    pub unit: (),
    pub marker: std::marker::PhantomData<String>,
    pub never_empty: Vec<()>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "type")]
pub enum InternalUnit {
    A,
    B { x: u8 },
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "type", deny_unknown_fields)]
pub enum InternalStrict {
    A,
    B { x: u8 },
}

#[derive(Deserialize, JsonSchema)]
pub struct InternalVariants {
    pub unit: InternalUnit,
    pub strict: InternalStrict,
}

#[derive(Deserialize, JsonSchema)]
#[schemars(rename = "Wrapped_{T}")]
pub struct RenamedGeneric<T> {
    pub value: T,
}

#[derive(Deserialize, JsonSchema)]
pub struct WithDefaultParam<T = String> {
    pub value: T,
}

#[derive(Deserialize, JsonSchema)]
pub struct GenericsAdvanced {
    pub a: RenamedGeneric<u8>,
    pub b: RenamedGeneric<Inner>,
    pub c: WithDefaultParam,
    pub d: WithDefaultParam<bool>,
}

#[derive(Deserialize, JsonSchema)]
pub struct Borrowed<'a> {
    pub name: &'a str,
    pub boxed: Box<str>,
    pub children: Vec<Self>,
}

/// # Tagged struct
/// A struct that serialises its own name.
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type")]
pub struct TaggedStruct {
    pub x: u8,
}

#[derive(Deserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "SCREAMING_SNAKE_CASE"
)]
pub enum InternalRenamed {
    FirstOne {
        some_field: u8,
    },
    SecondOne(UserId),
    ThirdOne(UnitStruct),
    #[serde(other)]
    Unknown,
}

#[derive(Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
pub enum AdjacentMixed {
    Known(u8),
    #[serde(untagged)]
    Fallback(String),
}

#[derive(Deserialize, JsonSchema)]
pub enum FlatChoice {
    Alpha,
    Beta,
    Gamma { g: u8 },
}

#[derive(Deserialize, JsonSchema)]
pub struct FlattenEnums {
    pub id: u8,
    #[serde(flatten)]
    pub choice: FlatChoice,
    #[serde(flatten)]
    pub maybe_shape: Option<Shape>,
}

#[derive(Deserialize, JsonSchema)]
pub struct FlattenUnitEnum {
    #[serde(flatten)]
    pub color: Color,
    #[serde(flatten)]
    pub target: Option<Target>,
}

#[derive(Deserialize, JsonSchema)]
pub struct OptionCombos {
    pub target: Option<Target>,
    pub color2: Option<Option<Color>>,
    pub event: Option<Event>,
    pub unit: Option<()>,
    pub tuple: Option<(u8, u8)>,
    pub map: Option<HashMap<String, Inner>>,
    /// Documented optional value.
    pub any: Option<serde_json::Value>,
}

#[derive(Deserialize, JsonSchema)]
pub struct MoreValidation {
    #[validate(length(min = 1))]
    pub non_empty: Vec<u8>,
    #[validate(range(min = 1))]
    pub maybe_positive: Option<u32>,
    #[garde(length(min = 3, max = 5))]
    pub garde_len: String,
    #[schemars(range(max = u16::MAX))]
    pub below_max: u32,
    #[schemars(length(min = "2"))]
    pub string_bound: String,
    #[schemars(ip)]
    pub ip_text: String,
    #[validate(contains(pattern = "needle"))]
    pub haystack: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct OutputOnlyFields {
    #[serde(skip_deserializing, default = "default_name")]
    pub server_name: String,
    #[serde(skip_serializing)]
    pub secret: Option<String>,
    pub tuple_variant: WithSkippedTupleField,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub enum WithSkippedTupleField {
    Pair(u8, #[serde(skip)] u8),
    #[serde(skip_serializing)]
    InputOnly,
    #[serde(skip_deserializing)]
    OutputOnly,
}

/// A documented transparent type keeps its own definition.
#[derive(Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct DocumentedId(pub u32);

#[derive(Deserialize, JsonSchema)]
#[schemars(with = "String")]
pub struct AsString {
    pub hidden: u8,
}

/// Documented, so not forwarded.
#[derive(Deserialize, JsonSchema)]
#[schemars(with = "Vec<u8>")]
pub struct AsBytes {
    pub hidden: u8,
}

#[derive(Deserialize, JsonSchema)]
pub struct ContainerWith {
    pub id: DocumentedId,
    pub as_string: AsString,
    pub as_bytes: AsBytes,
    pub status: Option<Status>,
}

#[derive(Deserialize, JsonSchema)]
pub struct ConstDefaults {
    #[serde(default = "default_pi")]
    pub pi: f64,
    #[serde(default = "default_negative")]
    pub negative: i32,
    #[serde(default = "default_letters")]
    pub letters: Vec<char>,
    #[serde(default = "default_maybe")]
    pub maybe: Option<String>,
    #[serde(default = "Mode::fast")]
    pub mode: Mode,
    #[serde(default = "default_big")]
    pub big: u64,
}

const PI: f64 = 3.25;

fn default_pi() -> f64 {
    PI
}

fn default_negative() -> i32 {
    -7
}

fn default_letters() -> Vec<char> {
    vec!['x', 'y']
}

fn default_maybe() -> Option<String> {
    Some("set".into())
}

fn default_big() -> u64 {
    u64::MAX
}

impl Mode {
    fn fast() -> Mode {
        Mode::FastPath
    }
}

/// Log level, as an integer.
#[derive(Deserialize, schemars::JsonSchema_repr)]
#[repr(u8)]
pub enum Level {
    Low = 1,
    Mid,
    High = 10,
}

#[derive(Deserialize, JsonSchema)]
pub struct ReprArgs {
    pub level: Level,
    pub levels: Vec<Level>,
}
