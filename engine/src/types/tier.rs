//! Coverage tiers: how precisely a type describes a value (reference
//! section 3, "Coverage tiers").

use super::Type;

/// In the reference's order, which is also the rank: a union takes its
/// worst (highest) member's tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Constant,
    Nominal,
    Shaped,
    Refined,
    Bot,
    DynamicSpecific,
    DynamicTop,
    Top,
}

impl Tier {
    pub const ALL: [Tier; 8] = [
        Tier::Constant,
        Tier::Nominal,
        Tier::Shaped,
        Tier::Refined,
        Tier::Bot,
        Tier::DynamicSpecific,
        Tier::DynamicTop,
        Tier::Top,
    ];

    pub fn of(ty: &Type) -> Tier {
        match ty {
            Type::Constant(_) => Tier::Constant,
            Type::Nominal { .. } | Type::Singleton(_) => Tier::Nominal,
            Type::Tuple(_) | Type::Shape(_) | Type::IntRange { .. } => Tier::Shaped,
            Type::Bot => Tier::Bot,
            Type::Dynamic(None) => Tier::DynamicTop,
            Type::Dynamic(Some(facet)) if **facet == Type::Top => Tier::DynamicTop,
            Type::Dynamic(_) => Tier::DynamicSpecific,
            Type::Top => Tier::Top,
            Type::Union(members) => members.iter().map(Tier::of).max().unwrap_or(Tier::Bot),
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Tier::Constant => "constant",
            Tier::Nominal => "nominal",
            Tier::Shaped => "shaped",
            Tier::Refined => "refined",
            Tier::Bot => "bot",
            Tier::DynamicSpecific => "dynamic_specific",
            Tier::DynamicTop => "dynamic_top",
            Tier::Top => "top",
        }
    }

    pub fn is_precise(self) -> bool {
        self <= Tier::Bot
    }

    pub fn is_opaque(self) -> bool {
        matches!(self, Tier::DynamicTop | Tier::Top)
    }

    pub fn index(self) -> usize {
        self as usize
    }
}
