//! The Prism class name of every node kind (`Prism::CallNode`), as type-of
//! reports it, and which kinds are expressions for coverage.

use ruby_prism::Node;

/// Every node kind, once: [`kind`] tells a node's, and [`NodeKind::name`]
/// its Prism class name. Inference keys its tables on the kind, which
/// hashes and compares as one byte, where the name took a string compare.
macro_rules! node_kinds {
    ($($kind:ident),* $(,)?) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum NodeKind {
            $($kind),*
        }

        /// The node's kind.
        pub fn kind(node: &Node<'_>) -> NodeKind {
            match node {
                $(Node::$kind { .. } => NodeKind::$kind),*
            }
        }

        impl NodeKind {
            /// The kind's Prism class name without the `Prism::` prefix.
            pub fn name(self) -> &'static str {
                match self {
                    $(NodeKind::$kind => stringify!($kind)),*
                }
            }
        }
    };
}

node_kinds! {
    AliasGlobalVariableNode,
    AliasMethodNode,
    AlternationPatternNode,
    AndNode,
    ArgumentsNode,
    ArrayNode,
    ArrayPatternNode,
    AssocNode,
    AssocSplatNode,
    BackReferenceReadNode,
    BeginNode,
    BlockArgumentNode,
    BlockLocalVariableNode,
    BlockNode,
    BlockParameterNode,
    BlockParametersNode,
    BreakNode,
    CallAndWriteNode,
    CallNode,
    CallOperatorWriteNode,
    CallOrWriteNode,
    CallTargetNode,
    CapturePatternNode,
    CaseMatchNode,
    CaseNode,
    ClassNode,
    ClassVariableAndWriteNode,
    ClassVariableOperatorWriteNode,
    ClassVariableOrWriteNode,
    ClassVariableReadNode,
    ClassVariableTargetNode,
    ClassVariableWriteNode,
    ConstantAndWriteNode,
    ConstantOperatorWriteNode,
    ConstantOrWriteNode,
    ConstantPathAndWriteNode,
    ConstantPathNode,
    ConstantPathOperatorWriteNode,
    ConstantPathOrWriteNode,
    ConstantPathTargetNode,
    ConstantPathWriteNode,
    ConstantReadNode,
    ConstantTargetNode,
    ConstantWriteNode,
    DefNode,
    DefinedNode,
    ElseNode,
    EmbeddedStatementsNode,
    EmbeddedVariableNode,
    EnsureNode,
    ErrorRecoveryNode,
    FalseNode,
    FindPatternNode,
    FlipFlopNode,
    FloatNode,
    ForNode,
    ForwardingArgumentsNode,
    ForwardingParameterNode,
    ForwardingSuperNode,
    GlobalVariableAndWriteNode,
    GlobalVariableOperatorWriteNode,
    GlobalVariableOrWriteNode,
    GlobalVariableReadNode,
    GlobalVariableTargetNode,
    GlobalVariableWriteNode,
    HashNode,
    HashPatternNode,
    IfNode,
    ImaginaryNode,
    ImplicitNode,
    ImplicitRestNode,
    InNode,
    IndexAndWriteNode,
    IndexOperatorWriteNode,
    IndexOrWriteNode,
    IndexTargetNode,
    InstanceVariableAndWriteNode,
    InstanceVariableOperatorWriteNode,
    InstanceVariableOrWriteNode,
    InstanceVariableReadNode,
    InstanceVariableTargetNode,
    InstanceVariableWriteNode,
    IntegerNode,
    InterpolatedMatchLastLineNode,
    InterpolatedRegularExpressionNode,
    InterpolatedStringNode,
    InterpolatedSymbolNode,
    InterpolatedXStringNode,
    ItLocalVariableReadNode,
    ItParametersNode,
    KeywordHashNode,
    KeywordRestParameterNode,
    LambdaNode,
    LocalVariableAndWriteNode,
    LocalVariableOperatorWriteNode,
    LocalVariableOrWriteNode,
    LocalVariableReadNode,
    LocalVariableTargetNode,
    LocalVariableWriteNode,
    MatchLastLineNode,
    MatchPredicateNode,
    MatchRequiredNode,
    MatchWriteNode,
    ModuleNode,
    MultiTargetNode,
    MultiWriteNode,
    NextNode,
    NilNode,
    NoBlockParameterNode,
    NoKeywordsParameterNode,
    NumberedParametersNode,
    NumberedReferenceReadNode,
    OptionalKeywordParameterNode,
    OptionalParameterNode,
    OrNode,
    ParametersNode,
    ParenthesesNode,
    PinnedExpressionNode,
    PinnedVariableNode,
    PostExecutionNode,
    PreExecutionNode,
    ProgramNode,
    RangeNode,
    RationalNode,
    RedoNode,
    RegularExpressionNode,
    RequiredKeywordParameterNode,
    RequiredParameterNode,
    RescueModifierNode,
    RescueNode,
    RestParameterNode,
    RetryNode,
    ReturnNode,
    SelfNode,
    ShareableConstantNode,
    SingletonClassNode,
    SourceEncodingNode,
    SourceFileNode,
    SourceLineNode,
    SplatNode,
    StatementsNode,
    StringNode,
    SuperNode,
    SymbolNode,
    TrueNode,
    UndefNode,
    UnlessNode,
    UntilNode,
    WhenNode,
    WhileNode,
    XStringNode,
    YieldNode,
}

/// The node's Prism class name without the `Prism::` prefix.
pub fn class_name(node: &Node<'_>) -> &'static str {
    kind(node).name()
}

/// Nodes that are not value-producing expressions, left out of coverage
/// (the reference's list): bodies, argument and parameter lists, hash
/// pairs, and the clauses of `case`, `begin` and `if`.
pub fn is_expression(node: &Node<'_>) -> bool {
    !matches!(
        node,
        Node::ProgramNode { .. }
            | Node::StatementsNode { .. }
            | Node::ArgumentsNode { .. }
            | Node::BlockArgumentNode { .. }
            | Node::ParametersNode { .. }
            | Node::BlockParametersNode { .. }
            | Node::NumberedParametersNode { .. }
            | Node::ItParametersNode { .. }
            | Node::KeywordHashNode { .. }
            | Node::RequiredParameterNode { .. }
            | Node::OptionalParameterNode { .. }
            | Node::RestParameterNode { .. }
            | Node::KeywordRestParameterNode { .. }
            | Node::BlockParameterNode { .. }
            | Node::RequiredKeywordParameterNode { .. }
            | Node::OptionalKeywordParameterNode { .. }
            | Node::ForwardingParameterNode { .. }
            | Node::NoKeywordsParameterNode { .. }
            | Node::ImplicitRestNode { .. }
            | Node::AssocNode { .. }
            | Node::AssocSplatNode { .. }
            | Node::WhenNode { .. }
            | Node::InNode { .. }
            | Node::ElseNode { .. }
            | Node::EnsureNode { .. }
            | Node::RescueNode { .. }
    )
}

/// Nodes `type-of` looks through to what they contain: lists and clauses
/// that have no value of their own.
pub fn is_container(node: &Node<'_>) -> bool {
    matches!(
        node,
        Node::ProgramNode { .. }
            | Node::StatementsNode { .. }
            | Node::ArgumentsNode { .. }
            | Node::ParametersNode { .. }
            | Node::BlockParametersNode { .. }
            | Node::NumberedParametersNode { .. }
            | Node::ItParametersNode { .. }
            | Node::WhenNode { .. }
            | Node::InNode { .. }
            | Node::ElseNode { .. }
            | Node::EnsureNode { .. }
            | Node::RescueNode { .. }
    )
}
