//! The Prism class name of every node kind (`Prism::CallNode`), as type-of
//! reports it, and which kinds are expressions for coverage.

use ruby_prism::Node;

/// The node's Prism class name without the `Prism::` prefix.
pub fn class_name(node: &Node<'_>) -> &'static str {
    match node {
        Node::AliasGlobalVariableNode { .. } => "AliasGlobalVariableNode",
        Node::AliasMethodNode { .. } => "AliasMethodNode",
        Node::AlternationPatternNode { .. } => "AlternationPatternNode",
        Node::AndNode { .. } => "AndNode",
        Node::ArgumentsNode { .. } => "ArgumentsNode",
        Node::ArrayNode { .. } => "ArrayNode",
        Node::ArrayPatternNode { .. } => "ArrayPatternNode",
        Node::AssocNode { .. } => "AssocNode",
        Node::AssocSplatNode { .. } => "AssocSplatNode",
        Node::BackReferenceReadNode { .. } => "BackReferenceReadNode",
        Node::BeginNode { .. } => "BeginNode",
        Node::BlockArgumentNode { .. } => "BlockArgumentNode",
        Node::BlockLocalVariableNode { .. } => "BlockLocalVariableNode",
        Node::BlockNode { .. } => "BlockNode",
        Node::BlockParameterNode { .. } => "BlockParameterNode",
        Node::BlockParametersNode { .. } => "BlockParametersNode",
        Node::BreakNode { .. } => "BreakNode",
        Node::CallAndWriteNode { .. } => "CallAndWriteNode",
        Node::CallNode { .. } => "CallNode",
        Node::CallOperatorWriteNode { .. } => "CallOperatorWriteNode",
        Node::CallOrWriteNode { .. } => "CallOrWriteNode",
        Node::CallTargetNode { .. } => "CallTargetNode",
        Node::CapturePatternNode { .. } => "CapturePatternNode",
        Node::CaseMatchNode { .. } => "CaseMatchNode",
        Node::CaseNode { .. } => "CaseNode",
        Node::ClassNode { .. } => "ClassNode",
        Node::ClassVariableAndWriteNode { .. } => "ClassVariableAndWriteNode",
        Node::ClassVariableOperatorWriteNode { .. } => "ClassVariableOperatorWriteNode",
        Node::ClassVariableOrWriteNode { .. } => "ClassVariableOrWriteNode",
        Node::ClassVariableReadNode { .. } => "ClassVariableReadNode",
        Node::ClassVariableTargetNode { .. } => "ClassVariableTargetNode",
        Node::ClassVariableWriteNode { .. } => "ClassVariableWriteNode",
        Node::ConstantAndWriteNode { .. } => "ConstantAndWriteNode",
        Node::ConstantOperatorWriteNode { .. } => "ConstantOperatorWriteNode",
        Node::ConstantOrWriteNode { .. } => "ConstantOrWriteNode",
        Node::ConstantPathAndWriteNode { .. } => "ConstantPathAndWriteNode",
        Node::ConstantPathNode { .. } => "ConstantPathNode",
        Node::ConstantPathOperatorWriteNode { .. } => "ConstantPathOperatorWriteNode",
        Node::ConstantPathOrWriteNode { .. } => "ConstantPathOrWriteNode",
        Node::ConstantPathTargetNode { .. } => "ConstantPathTargetNode",
        Node::ConstantPathWriteNode { .. } => "ConstantPathWriteNode",
        Node::ConstantReadNode { .. } => "ConstantReadNode",
        Node::ConstantTargetNode { .. } => "ConstantTargetNode",
        Node::ConstantWriteNode { .. } => "ConstantWriteNode",
        Node::DefNode { .. } => "DefNode",
        Node::DefinedNode { .. } => "DefinedNode",
        Node::ElseNode { .. } => "ElseNode",
        Node::EmbeddedStatementsNode { .. } => "EmbeddedStatementsNode",
        Node::EmbeddedVariableNode { .. } => "EmbeddedVariableNode",
        Node::EnsureNode { .. } => "EnsureNode",
        Node::ErrorRecoveryNode { .. } => "ErrorRecoveryNode",
        Node::FalseNode { .. } => "FalseNode",
        Node::FindPatternNode { .. } => "FindPatternNode",
        Node::FlipFlopNode { .. } => "FlipFlopNode",
        Node::FloatNode { .. } => "FloatNode",
        Node::ForNode { .. } => "ForNode",
        Node::ForwardingArgumentsNode { .. } => "ForwardingArgumentsNode",
        Node::ForwardingParameterNode { .. } => "ForwardingParameterNode",
        Node::ForwardingSuperNode { .. } => "ForwardingSuperNode",
        Node::GlobalVariableAndWriteNode { .. } => "GlobalVariableAndWriteNode",
        Node::GlobalVariableOperatorWriteNode { .. } => "GlobalVariableOperatorWriteNode",
        Node::GlobalVariableOrWriteNode { .. } => "GlobalVariableOrWriteNode",
        Node::GlobalVariableReadNode { .. } => "GlobalVariableReadNode",
        Node::GlobalVariableTargetNode { .. } => "GlobalVariableTargetNode",
        Node::GlobalVariableWriteNode { .. } => "GlobalVariableWriteNode",
        Node::HashNode { .. } => "HashNode",
        Node::HashPatternNode { .. } => "HashPatternNode",
        Node::IfNode { .. } => "IfNode",
        Node::ImaginaryNode { .. } => "ImaginaryNode",
        Node::ImplicitNode { .. } => "ImplicitNode",
        Node::ImplicitRestNode { .. } => "ImplicitRestNode",
        Node::InNode { .. } => "InNode",
        Node::IndexAndWriteNode { .. } => "IndexAndWriteNode",
        Node::IndexOperatorWriteNode { .. } => "IndexOperatorWriteNode",
        Node::IndexOrWriteNode { .. } => "IndexOrWriteNode",
        Node::IndexTargetNode { .. } => "IndexTargetNode",
        Node::InstanceVariableAndWriteNode { .. } => "InstanceVariableAndWriteNode",
        Node::InstanceVariableOperatorWriteNode { .. } => "InstanceVariableOperatorWriteNode",
        Node::InstanceVariableOrWriteNode { .. } => "InstanceVariableOrWriteNode",
        Node::InstanceVariableReadNode { .. } => "InstanceVariableReadNode",
        Node::InstanceVariableTargetNode { .. } => "InstanceVariableTargetNode",
        Node::InstanceVariableWriteNode { .. } => "InstanceVariableWriteNode",
        Node::IntegerNode { .. } => "IntegerNode",
        Node::InterpolatedMatchLastLineNode { .. } => "InterpolatedMatchLastLineNode",
        Node::InterpolatedRegularExpressionNode { .. } => "InterpolatedRegularExpressionNode",
        Node::InterpolatedStringNode { .. } => "InterpolatedStringNode",
        Node::InterpolatedSymbolNode { .. } => "InterpolatedSymbolNode",
        Node::InterpolatedXStringNode { .. } => "InterpolatedXStringNode",
        Node::ItLocalVariableReadNode { .. } => "ItLocalVariableReadNode",
        Node::ItParametersNode { .. } => "ItParametersNode",
        Node::KeywordHashNode { .. } => "KeywordHashNode",
        Node::KeywordRestParameterNode { .. } => "KeywordRestParameterNode",
        Node::LambdaNode { .. } => "LambdaNode",
        Node::LocalVariableAndWriteNode { .. } => "LocalVariableAndWriteNode",
        Node::LocalVariableOperatorWriteNode { .. } => "LocalVariableOperatorWriteNode",
        Node::LocalVariableOrWriteNode { .. } => "LocalVariableOrWriteNode",
        Node::LocalVariableReadNode { .. } => "LocalVariableReadNode",
        Node::LocalVariableTargetNode { .. } => "LocalVariableTargetNode",
        Node::LocalVariableWriteNode { .. } => "LocalVariableWriteNode",
        Node::MatchLastLineNode { .. } => "MatchLastLineNode",
        Node::MatchPredicateNode { .. } => "MatchPredicateNode",
        Node::MatchRequiredNode { .. } => "MatchRequiredNode",
        Node::MatchWriteNode { .. } => "MatchWriteNode",
        Node::ModuleNode { .. } => "ModuleNode",
        Node::MultiTargetNode { .. } => "MultiTargetNode",
        Node::MultiWriteNode { .. } => "MultiWriteNode",
        Node::NextNode { .. } => "NextNode",
        Node::NilNode { .. } => "NilNode",
        Node::NoBlockParameterNode { .. } => "NoBlockParameterNode",
        Node::NoKeywordsParameterNode { .. } => "NoKeywordsParameterNode",
        Node::NumberedParametersNode { .. } => "NumberedParametersNode",
        Node::NumberedReferenceReadNode { .. } => "NumberedReferenceReadNode",
        Node::OptionalKeywordParameterNode { .. } => "OptionalKeywordParameterNode",
        Node::OptionalParameterNode { .. } => "OptionalParameterNode",
        Node::OrNode { .. } => "OrNode",
        Node::ParametersNode { .. } => "ParametersNode",
        Node::ParenthesesNode { .. } => "ParenthesesNode",
        Node::PinnedExpressionNode { .. } => "PinnedExpressionNode",
        Node::PinnedVariableNode { .. } => "PinnedVariableNode",
        Node::PostExecutionNode { .. } => "PostExecutionNode",
        Node::PreExecutionNode { .. } => "PreExecutionNode",
        Node::ProgramNode { .. } => "ProgramNode",
        Node::RangeNode { .. } => "RangeNode",
        Node::RationalNode { .. } => "RationalNode",
        Node::RedoNode { .. } => "RedoNode",
        Node::RegularExpressionNode { .. } => "RegularExpressionNode",
        Node::RequiredKeywordParameterNode { .. } => "RequiredKeywordParameterNode",
        Node::RequiredParameterNode { .. } => "RequiredParameterNode",
        Node::RescueModifierNode { .. } => "RescueModifierNode",
        Node::RescueNode { .. } => "RescueNode",
        Node::RestParameterNode { .. } => "RestParameterNode",
        Node::RetryNode { .. } => "RetryNode",
        Node::ReturnNode { .. } => "ReturnNode",
        Node::SelfNode { .. } => "SelfNode",
        Node::ShareableConstantNode { .. } => "ShareableConstantNode",
        Node::SingletonClassNode { .. } => "SingletonClassNode",
        Node::SourceEncodingNode { .. } => "SourceEncodingNode",
        Node::SourceFileNode { .. } => "SourceFileNode",
        Node::SourceLineNode { .. } => "SourceLineNode",
        Node::SplatNode { .. } => "SplatNode",
        Node::StatementsNode { .. } => "StatementsNode",
        Node::StringNode { .. } => "StringNode",
        Node::SuperNode { .. } => "SuperNode",
        Node::SymbolNode { .. } => "SymbolNode",
        Node::TrueNode { .. } => "TrueNode",
        Node::UndefNode { .. } => "UndefNode",
        Node::UnlessNode { .. } => "UnlessNode",
        Node::UntilNode { .. } => "UntilNode",
        Node::WhenNode { .. } => "WhenNode",
        Node::WhileNode { .. } => "WhileNode",
        Node::XStringNode { .. } => "XStringNode",
        Node::YieldNode { .. } => "YieldNode",
    }
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
