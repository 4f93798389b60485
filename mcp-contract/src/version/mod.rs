//! Versions follow the contract. A release number is a promise to callers
//! (SemVer, as cargo reads it): a major bump says "something you relied on
//! may break", a minor one "something new", a patch "nothing you can see".
//! After the gate has classified every change, this module says which bump
//! the change requires, as `cargo-semver-checks` does for a crate's API:
//! breaking → major, additive (and deprecations, as SemVer §7 asks) →
//! minor, anything else → patch; before 1.0 each shifts one place down, as
//! cargo reads `0.y.z` (a breaking change bumps `y`, anything else `z`; in
//! `0.0.z` every release is its own major).
//!
//! It then reads the version each source declares at the baseline and in
//! the candidate ([`Declared`]: a package's `Cargo.toml` ([`cargo`]), a
//! capture's `serverInfo.version`, the MCP registry's `server.json`
//! ([`server_json`], whose own rules — a specific version, never a range or
//! `latest`, unique per publication — are checked where the file exists)
//! and judges whether the step between them carries the requirement. Every
//! verdict is a [`Finding`], rendered by every check format like the usage
//! gate's; with `--require-version-bump` a version that does not carry the
//! change (or that cannot be read) fails the check.

pub mod cargo;
pub mod read;
pub mod server_json;

use semver::Version;

use crate::check::usage::findings::{Finding, Level};
use crate::check::Gated;
use crate::diff::Change;
use crate::rules::{RuleId, Severity};

/// Every rule id a version finding can carry, with what it means.
pub const RULES: &[(&str, &str)] = &[
    (
        "version.bump-carried",
        "the declared version carries the bump the change requires",
    ),
    (
        "version.bump-missing",
        "the change requires a bigger version bump than the declared version makes",
    ),
    (
        "version.lowered",
        "the declared version is lower than at the baseline",
    ),
    (
        "version.unknown",
        "the change requires a bump, but a side declares no version, or one that is not SemVer",
    ),
    (
        "server-json.version-range",
        "server.json's version is a range or a wildcard; the MCP registry takes one specific version",
    ),
    (
        "server-json.version-reserved",
        "server.json's version is `latest`, which the MCP registry reserves",
    ),
    (
        "server-json.version-invalid",
        "server.json's version is not a string of 1 to 255 characters",
    ),
    (
        "server-json.version-reused",
        "server.json keeps a version whose published content changed; the registry's versions are unique and immutable",
    ),
];

/// A version bump, smallest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bump {
    Patch,
    Minor,
    Major,
}

impl Bump {
    pub fn as_str(self) -> &'static str {
        match self {
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }

    /// What kind of change requires it, for messages.
    fn because(self) -> &'static str {
        match self {
            Bump::Major => "breaking",
            Bump::Minor => "additive or deprecating",
            Bump::Patch => "behavioral or cosmetic",
        }
    }
}

/// The bump one change requires: breaking → major, additive and
/// deprecations → minor, behavioral and cosmetic → patch.
pub fn bump_of(change: &Change) -> Bump {
    match (change.severity, change.rule_id()) {
        (Severity::Breaking, _) => Bump::Major,
        (_, RuleId::InputDeprecated | RuleId::OutputDeprecated) => Bump::Minor,
        (Severity::Additive, _) => Bump::Minor,
        (Severity::Behavioral | Severity::Cosmetic, _) => Bump::Patch,
    }
}

/// The bump a set of changes requires, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Required {
    pub bump: Bump,
    /// How many changes require exactly that bump.
    pub count: usize,
    /// The first of them: its rule id and tool.
    pub first: (&'static str, String),
}

impl Required {
    /// `2 breaking changes (first: tool.removed on `search`)`.
    fn reason(&self) -> String {
        let s = if self.count == 1 { "" } else { "s" };
        format!(
            "{} {} change{s}, first {} on `{}`",
            self.count,
            self.bump.because(),
            self.first.0,
            self.first.1
        )
    }
}

/// The bump `changes` require together (the largest of theirs); `None`
/// when there is no change. Acknowledged changes count: an acknowledgement
/// lets a break through the gate, it does not make it compatible.
pub fn required<'a>(changes: impl IntoIterator<Item = &'a Change>) -> Option<Required> {
    let mut out: Option<Required> = None;
    for c in changes {
        let bump = bump_of(c);
        match &mut out {
            Some(r) if r.bump == bump => r.count += 1,
            Some(r) if r.bump > bump => {}
            _ => {
                out = Some(Required {
                    bump,
                    count: 1,
                    first: (c.rule, c.tool.clone()),
                })
            }
        }
    }
    out
}

/// How a declared version moved from the baseline to the candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Lower than at the baseline (SemVer precedence).
    Lowered,
    /// The same version (build metadata aside).
    Unchanged,
    /// Raised by this much, as cargo reads compatibility (`0.3.1` →
    /// `0.4.0` is major, `0.3.1` → `0.3.2` minor, `0.0.1` → `0.0.2` major).
    Raised(Bump),
    /// Raised from a pre-release, which promises nothing: any higher
    /// version carries any change.
    FromPreRelease,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Lowered => "lowered",
            Step::Unchanged => "unchanged",
            Step::Raised(b) => b.as_str(),
            Step::FromPreRelease => "from-pre-release",
        }
    }

    /// Does this step carry `bump`?
    pub fn carries(self, bump: Bump) -> bool {
        match self {
            Step::Raised(b) => b >= bump,
            Step::FromPreRelease => true,
            Step::Lowered | Step::Unchanged => false,
        }
    }

    fn words(self) -> String {
        match self {
            Step::Lowered => "lower".to_string(),
            Step::Unchanged => "unchanged".to_string(),
            Step::Raised(b) => format!("a {} bump", b.as_str()),
            Step::FromPreRelease => "a release after a pre-release".to_string(),
        }
    }
}

/// The step from `from` to `to`.
pub fn step(from: &Version, to: &Version) -> Step {
    use std::cmp::Ordering;
    match to.cmp_precedence(from) {
        Ordering::Less => return Step::Lowered,
        Ordering::Equal => return Step::Unchanged,
        Ordering::Greater => {}
    }
    if !from.pre.is_empty() {
        return Step::FromPreRelease;
    }
    let bump = if from.major != to.major {
        Bump::Major
    } else if from.major == 0 {
        if from.minor != to.minor || from.minor == 0 {
            Bump::Major
        } else {
            Bump::Minor
        }
    } else if from.minor != to.minor {
        Bump::Minor
    } else {
        Bump::Patch
    };
    Step::Raised(bump)
}

/// The smallest version after `from` that carries `bump`: the release of
/// a pre-release, else the next major, minor or patch as cargo reads them
/// (`0.3.1` + major = `0.4.0`, `0.3.1` + minor = `0.3.2`, `0.0.1` + any = `0.0.2`).
pub fn smallest_carrying(from: &Version, bump: Bump) -> Version {
    if !from.pre.is_empty() {
        return Version::new(from.major, from.minor, from.patch);
    }
    let (ma, mi, pa) = (from.major, from.minor, from.patch);
    match (ma, mi, bump) {
        (0, 0, _) => Version::new(0, 0, pa + 1),
        (0, _, Bump::Major) => Version::new(0, mi + 1, 0),
        (0, _, _) => Version::new(0, mi, pa + 1),
        (_, _, Bump::Major) => Version::new(ma + 1, 0, 0),
        (_, _, Bump::Minor) => Version::new(ma, mi + 1, 0),
        (_, _, Bump::Patch) => Version::new(ma, mi, pa + 1),
    }
}

/// Where a version is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A cargo package's `version` (or its workspace's).
    CargoToml,
    /// The `serverInfo.version` a server gave when it was captured (in its
    /// lockfile, in a consumer's lockfile, or live).
    ServerInfo,
    /// The MCP registry's `server.json`.
    ServerJson,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::CargoToml => "Cargo.toml",
            Source::ServerInfo => "serverInfo",
            Source::ServerJson => "server.json",
        }
    }

    /// How to declare `version` here.
    fn fix(self, version: &str) -> String {
        match self {
            Source::CargoToml => format!("set `version = \"{version}\"` (or a later version) in Cargo.toml"),
            Source::ServerInfo => format!("release the server as {version} (or a later version) and capture it again (`cargo mcp-contract snapshot --server -- CMD` records its serverInfo.version)"),
            Source::ServerJson => format!("set `\"version\": \"{version}\"` (or a later version) in server.json"),
        }
    }
}

/// One side's declared version and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub version: String,
    /// The file, as the report names files.
    pub file: String,
    pub line: Option<usize>,
}

/// A version source at the baseline and in the candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub source: Source,
    /// What declares it: `package `weather-server``, `server `github``.
    pub owner: String,
    pub baseline: Option<Declaration>,
    pub candidate: Option<Declaration>,
    /// (server.json) something it publishes besides its version changed
    /// since the baseline.
    pub content_changed: bool,
    /// What the registry would refuse in the file (server.json), found
    /// when it was read.
    pub registry: Vec<Finding>,
}

impl Declared {
    pub fn new(source: Source, owner: impl Into<String>) -> Declared {
        Declared {
            source,
            owner: owner.into(),
            baseline: None,
            candidate: None,
            content_changed: false,
            registry: vec![],
        }
    }
}

/// The verdict on one declared version.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    pub source: Source,
    pub owner: String,
    pub file: Option<String>,
    pub baseline: Option<String>,
    pub candidate: Option<String>,
    /// How it moved; `None` unless both sides are SemVer.
    pub step: Option<Step>,
    /// Whether it carries the required bump; `None` when nothing is
    /// required or the step is unknown.
    pub carries: Option<bool>,
    /// The smallest version that carries the required bump.
    pub next: Option<String>,
}

/// The version rule's part of one checked lockfile.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionCheck {
    /// What the changes require; `None` when nothing changed or the surface
    /// is new (a first release requires nothing).
    pub required: Option<Required>,
    /// `--require-version-bump`: the findings below are errors, not warnings.
    pub enforced: bool,
    pub declared: Vec<Judged>,
    pub findings: Vec<Finding>,
}

impl VersionCheck {
    /// Does the version rule fail the check?
    pub fn fails(&self) -> bool {
        self.findings.iter().any(|f| f.level == Level::Error)
    }
}

/// Judges each declared version against what `changes` require.
/// `new_surface`: the lockfile did not exist at the baseline.
pub fn judge(
    changes: &[Gated],
    new_surface: bool,
    declared: Vec<Declared>,
    enforced: bool,
) -> VersionCheck {
    let required = if new_surface {
        None
    } else {
        required(changes.iter().map(|g| &g.change))
    };
    let level = if enforced {
        Level::Error
    } else {
        Level::Warning
    };
    // A version that cannot be judged says so; it fails only when asked to.
    let unknown = if enforced { Level::Error } else { Level::Note };
    let mut findings = vec![];
    let mut judged = vec![];
    for d in declared {
        findings.extend(d.registry.iter().cloned());
        let (j, f) = judge_one(&d, required.as_ref(), (level, unknown));
        judged.push(j);
        findings.extend(f);
    }
    VersionCheck {
        required,
        enforced,
        declared: judged,
        findings,
    }
}

fn judge_one(
    d: &Declared,
    required: Option<&Required>,
    (level, unknown): (Level, Level),
) -> (Judged, Vec<Finding>) {
    let mut judged = Judged {
        source: d.source,
        owner: d.owner.clone(),
        file: d
            .candidate
            .as_ref()
            .or(d.baseline.as_ref())
            .map(|x| x.file.clone()),
        baseline: d.baseline.as_ref().map(|x| x.version.clone()),
        candidate: d.candidate.as_ref().map(|x| x.version.clone()),
        step: None,
        carries: None,
        next: None,
    };
    let what = format!("{} of {}", d.source.as_str(), d.owner);
    let at = d.candidate.as_ref().or(d.baseline.as_ref());
    let finding =
        |rule: &'static str, level: Level, message: String, help: Option<String>| Finding {
            rule,
            level,
            file: at.map_or_else(|| d.source.as_str().to_string(), |x| x.file.clone()),
            line: at.and_then(|x| x.line),
            message,
            details: vec![],
            help,
        };
    let mut out = vec![];
    let (b, c) = match (&d.baseline, &d.candidate) {
        (Some(b), Some(c)) => (b, c),
        (b, c) => {
            // Declared nowhere: nothing to say unless a version is required.
            let nowhere = b.is_none() && c.is_none() && unknown != Level::Error;
            if let Some(r) = required.filter(|_| !nowhere) {
                let missing = match (b, c) {
                    (_, None) => "declares no version now",
                    _ => "declared no version at the baseline, so the step cannot be judged",
                };
                out.push(finding(
                    "version.unknown",
                    unknown,
                    format!("the changes require a {} bump ({}), but {what} {missing}", r.bump.as_str(), r.reason()),
                    Some(match d.source {
                        Source::ServerInfo => "capture the server with this release (`cargo mcp-contract snapshot --server -- CMD` records serverInfo.version) at both revisions, or compare against a revision whose lockfile records it (--against REV)".to_string(),
                        _ => format!("declare a version in {}", d.source.as_str()),
                    }),
                ));
            }
            return (judged, out);
        }
    };
    let parsed = (
        Version::parse(b.version.trim()),
        Version::parse(c.version.trim()),
    );
    let (from, to) = match parsed {
        (Ok(from), Ok(to)) => (from, to),
        _ => {
            let bad = match &parsed {
                (Err(_), _) => &b.version,
                _ => &c.version,
            };
            let needed = required.map(|r| (r.bump, r.reason()));
            if let Some((bump, reason)) = needed {
                out.push(finding(
                    "version.unknown",
                    unknown,
                    format!("the changes require a {} bump ({reason}), but {what} is `{bad}`, which is not a SemVer version, so the bump cannot be judged", bump.as_str()),
                    Some("declare MAJOR.MINOR.PATCH versions (https://semver.org)".to_string()),
                ));
            } else if d.source == Source::ServerJson && d.content_changed && b.version == c.version
            {
                out.push(reused(&finding, level, &what, &c.version));
            }
            return (judged, out);
        }
    };
    let s = step(&from, &to);
    judged.step = Some(s);
    let moved = match s {
        Step::Unchanged => format!("{what} stays at {}", c.version),
        _ => format!("{what} goes {} -> {} ({})", b.version, c.version, s.words()),
    };
    if s == Step::Lowered {
        out.push(finding(
            "version.lowered",
            level,
            format!("{what} goes {} -> {}: lower than at the baseline", b.version, c.version),
            Some(format!(
                "declare a version above {} (versions only go up; callers and registries order releases by them)",
                b.version
            )),
        ));
    }
    match required {
        Some(r) => {
            let next = smallest_carrying(&from, r.bump);
            judged.next = Some(next.to_string());
            let carries = s.carries(r.bump);
            judged.carries = Some(carries);
            let pre_1 = if from.major == 0 && r.bump != Bump::Patch {
                " (before 1.0 the places shift: a breaking change bumps y of 0.y.z, anything else z)"
            } else {
                ""
            };
            if carries {
                out.push(finding(
                    "version.bump-carried",
                    Level::Note,
                    format!(
                        "the changes require a {} bump ({}); {moved}, which carries it",
                        r.bump.as_str(),
                        r.reason(),
                    ),
                    None,
                ));
            } else if s != Step::Lowered {
                let mut f = finding(
                    "version.bump-missing",
                    level,
                    format!(
                        "the changes require a {} bump ({}); {moved}{pre_1}",
                        r.bump.as_str(),
                        r.reason(),
                    ),
                    Some(d.source.fix(&next.to_string())),
                );
                f.details
                    .push(format!("smallest version that carries it: {next}"));
                out.push(f);
            }
        }
        None if d.source == Source::ServerJson && d.content_changed && s == Step::Unchanged => {
            out.push(reused(&finding, level, &what, &c.version));
        }
        None => {}
    }
    (judged, out)
}

fn reused(
    finding: &dyn Fn(&'static str, Level, String, Option<String>) -> Finding,
    level: Level,
    what: &str,
    version: &str,
) -> Finding {
    finding(
        "server-json.version-reused",
        level,
        format!("{what} keeps version {version} while what it publishes changed: the MCP registry refuses a version published before (versions are unique and immutable)"),
        Some("give this publication a new version in server.json (a pre-release label such as 1.2.3-1 for metadata only)".to_string()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn steps_are_read_as_cargo_reads_compatibility() {
        let cases = [
            ("1.4.2", "2.0.0", Step::Raised(Bump::Major)),
            ("1.4.2", "1.5.0", Step::Raised(Bump::Minor)),
            ("1.4.2", "1.4.3", Step::Raised(Bump::Patch)),
            ("1.4.2", "1.4.2", Step::Unchanged),
            ("1.4.2", "1.4.2+build.7", Step::Unchanged),
            ("1.4.2", "1.4.1", Step::Lowered),
            ("1.4.2", "1.4.2-rc.1", Step::Lowered),
            ("0.3.1", "0.4.0", Step::Raised(Bump::Major)),
            ("0.3.1", "0.3.2", Step::Raised(Bump::Minor)),
            ("0.0.1", "0.0.2", Step::Raised(Bump::Major)),
            ("0.9.9", "1.0.0", Step::Raised(Bump::Major)),
            ("2.0.0-rc.1", "2.0.0", Step::FromPreRelease),
            ("2.0.0-alpha.1", "2.0.0-alpha.2", Step::FromPreRelease),
            ("1.4.2", "2.0.0-rc.1", Step::Raised(Bump::Major)),
        ];
        for (from, to, want) in cases {
            assert_eq!(step(&v(from), &v(to)), want, "{from} -> {to}");
        }
    }

    #[test]
    fn the_smallest_carrying_version_shifts_before_1_0() {
        let cases = [
            ("1.4.2", Bump::Major, "2.0.0"),
            ("1.4.2", Bump::Minor, "1.5.0"),
            ("1.4.2", Bump::Patch, "1.4.3"),
            ("0.3.1", Bump::Major, "0.4.0"),
            ("0.3.1", Bump::Minor, "0.3.2"),
            ("0.3.1", Bump::Patch, "0.3.2"),
            ("0.0.4", Bump::Major, "0.0.5"),
            ("0.0.4", Bump::Patch, "0.0.5"),
            ("2.0.0-rc.1", Bump::Major, "2.0.0"),
        ];
        for (from, bump, want) in cases {
            let next = smallest_carrying(&v(from), bump);
            assert_eq!(next.to_string(), want, "{from} + {bump:?}");
            // and the step to it carries the bump, while nothing smaller does
            assert!(step(&v(from), &next).carries(bump), "{from} -> {next}");
        }
    }

    #[test]
    fn only_a_step_at_least_as_big_carries_a_bump() {
        assert!(Step::Raised(Bump::Major).carries(Bump::Minor));
        assert!(!Step::Raised(Bump::Minor).carries(Bump::Major));
        assert!(Step::Raised(Bump::Patch).carries(Bump::Patch));
        assert!(!Step::Unchanged.carries(Bump::Patch));
        assert!(!Step::Lowered.carries(Bump::Patch));
        assert!(Step::FromPreRelease.carries(Bump::Major));
    }
}
