//! Which registered rule a schema change is.
//!
//! Most schema rules exist in both directions (`input.type-narrowed`,
//! `output.type-narrowed`) and the comparator decides them without caring
//! which side of the wire it is on: it names the rule by [`SchemaRule`],
//! and [`SchemaRule::in_direction`] gives the registered [`RuleId`] through
//! the table below (a rule's emitters are found by searching for its
//! `SchemaRule` variant, the table by its `RuleId`). A rule that exists in
//! one direction only is named by its `RuleId` directly ([`Named`]).

use super::schema::{Direction, Effect};
use crate::rules::RuleId;

macro_rules! paired {
    ($( $kind:ident => $input:ident, $output:ident; )*) => {
        /// A schema rule that both directions have, named without its direction.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) enum SchemaRule {
            $( $kind, )*
        }

        impl SchemaRule {
            /// The registered rule in direction `dir`.
            pub(crate) fn in_direction(self, dir: Direction) -> RuleId {
                match (self, dir) {
                    $(
                        (SchemaRule::$kind, Direction::Input) => RuleId::$input,
                        (SchemaRule::$kind, Direction::Output) => RuleId::$output,
                    )*
                }
            }

            /// The direction-free name of a registered rule, when it has one.
            pub(crate) fn of(id: RuleId) -> Option<SchemaRule> {
                match id {
                    $( RuleId::$input | RuleId::$output => Some(SchemaRule::$kind), )*
                    _ => None,
                }
            }
        }
    };
}

paired! {
    AdditionalPropertiesNarrowed => InputAdditionalPropertiesNarrowed, OutputAdditionalPropertiesNarrowed;
    AdditionalPropertiesWidened => InputAdditionalPropertiesWidened, OutputAdditionalPropertiesWidened;
    AllOfNarrowed => InputAllOfNarrowed, OutputAllOfNarrowed;
    AllOfWidened => InputAllOfWidened, OutputAllOfWidened;
    AnnotationChanged => InputAnnotationChanged, OutputAnnotationChanged;
    ConstraintAdded => InputConstraintAdded, OutputConstraintAdded;
    ConstraintChanged => InputConstraintChanged, OutputConstraintChanged;
    ConstraintRemoved => InputConstraintRemoved, OutputConstraintRemoved;
    DefaultChanged => InputDefaultChanged, OutputDefaultChanged;
    DependentRequiredNarrowed => InputDependentRequiredNarrowed, OutputDependentRequiredNarrowed;
    DependentRequiredWidened => InputDependentRequiredWidened, OutputDependentRequiredWidened;
    Deprecated => InputDeprecated, OutputDeprecated;
    DescriptionChanged => InputDescriptionChanged, OutputDescriptionChanged;
    DialectChanged => InputDialectChanged, OutputDialectChanged;
    EnumNarrowed => InputEnumNarrowed, OutputEnumNarrowed;
    EnumWidened => InputEnumWidened, OutputEnumWidened;
    ExtensionChanged => InputExtensionChanged, OutputExtensionChanged;
    FormatChanged => InputFormatChanged, OutputFormatChanged;
    FormatNarrowed => InputFormatNarrowed, OutputFormatNarrowed;
    FormatWidened => InputFormatWidened, OutputFormatWidened;
    KeywordChanged => InputKeywordChanged, OutputKeywordChanged;
    LengthNarrowed => InputLengthNarrowed, OutputLengthNarrowed;
    LengthWidened => InputLengthWidened, OutputLengthWidened;
    NotCompared => InputNotCompared, OutputNotCompared;
    NotNarrowed => InputNotNarrowed, OutputNotNarrowed;
    NotWidened => InputNotWidened, OutputNotWidened;
    PatternChanged => InputPatternChanged, OutputPatternChanged;
    PatternNarrowed => InputPatternNarrowed, OutputPatternNarrowed;
    PatternPropertiesNarrowed => InputPatternPropertiesNarrowed, OutputPatternPropertiesNarrowed;
    PatternPropertiesWidened => InputPatternPropertiesWidened, OutputPatternPropertiesWidened;
    PatternWidened => InputPatternWidened, OutputPatternWidened;
    PropertyAdded => InputPropertyAdded, OutputPropertyAdded;
    PropertyRemoved => InputPropertyRemoved, OutputPropertyRemoved;
    RangeNarrowed => InputRangeNarrowed, OutputRangeNarrowed;
    RangeWidened => InputRangeWidened, OutputRangeWidened;
    RequiredAdded => InputRequiredAdded, OutputRequiredAdded;
    RequiredRemoved => InputRequiredRemoved, OutputRequiredRemoved;
    ResolutionChanged => InputResolutionChanged, OutputResolutionChanged;
    SizeNarrowed => InputSizeNarrowed, OutputSizeNarrowed;
    SizeWidened => InputSizeWidened, OutputSizeWidened;
    TypeNarrowed => InputTypeNarrowed, OutputTypeNarrowed;
    TypeWidened => InputTypeWidened, OutputTypeWidened;
    VariantAdded => InputVariantAdded, OutputVariantAdded;
    VariantRemoved => InputVariantRemoved, OutputVariantRemoved;
}

/// The rule an emitter names: direction-free, or one direction's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    Paired(SchemaRule),
    Exact(RuleId),
}

impl Named {
    pub(crate) fn in_direction(self, dir: Direction) -> RuleId {
        match self {
            Named::Paired(r) => r.in_direction(dir),
            Named::Exact(id) => id,
        }
    }
}

impl From<SchemaRule> for Named {
    fn from(r: SchemaRule) -> Named {
        Named::Paired(r)
    }
}

impl From<RuleId> for Named {
    fn from(id: RuleId) -> Named {
        Named::Exact(id)
    }
}

/// What a bound or a string constraint restricts: the rule family a
/// narrowing or widening of it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aspect {
    /// Numeric bounds and `multipleOf`.
    Range,
    /// String length.
    Length,
    /// Item and member counts, `uniqueItems`, `contains` counts.
    Size,
    Pattern,
    Format,
}

impl SchemaRule {
    /// The rule for `aspect` moved by `effect`. Bounds only narrow or widen;
    /// a bound the engine could not order would be a constraint changed.
    pub(crate) fn polar(aspect: Aspect, effect: Effect) -> SchemaRule {
        use SchemaRule as R;
        match (aspect, effect) {
            (Aspect::Range, Effect::Narrowed) => R::RangeNarrowed,
            (Aspect::Range, Effect::Widened) => R::RangeWidened,
            (Aspect::Length, Effect::Narrowed) => R::LengthNarrowed,
            (Aspect::Length, Effect::Widened) => R::LengthWidened,
            (Aspect::Size, Effect::Narrowed) => R::SizeNarrowed,
            (Aspect::Size, Effect::Widened) => R::SizeWidened,
            (Aspect::Pattern, Effect::Narrowed) => R::PatternNarrowed,
            (Aspect::Pattern, Effect::Widened) => R::PatternWidened,
            (Aspect::Pattern, _) => R::PatternChanged,
            (Aspect::Format, Effect::Narrowed) => R::FormatNarrowed,
            (Aspect::Format, Effect::Widened) => R::FormatWidened,
            (Aspect::Format, _) => R::FormatChanged,
            (Aspect::Range | Aspect::Length | Aspect::Size, _) => R::ConstraintChanged,
        }
    }

    /// The rule a change inside `not` becomes: the polarity swaps.
    pub(crate) fn negated(effect: Effect) -> Option<SchemaRule> {
        match effect {
            Effect::Narrowed => Some(SchemaRule::NotWidened),
            Effect::Widened => Some(SchemaRule::NotNarrowed),
            Effect::Changed => Some(SchemaRule::ConstraintChanged),
            Effect::Neutral => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_names_its_direction_and_comes_back() {
        for id in RuleId::ALL {
            if let Some(kind) = SchemaRule::of(*id) {
                let dir = match id.namespace() {
                    "input" => Direction::Input,
                    _ => Direction::Output,
                };
                assert_eq!(kind.in_direction(dir), *id);
                let other = match dir {
                    Direction::Input => Direction::Output,
                    Direction::Output => Direction::Input,
                };
                let twin = kind.in_direction(other);
                assert_eq!(twin.namespace(), other.namespace());
                assert_eq!(
                    twin.as_str().split_once('.').map(|p| p.1),
                    id.as_str().split_once('.').map(|p| p.1)
                );
            }
        }
    }
}
