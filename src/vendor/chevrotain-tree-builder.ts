/**
 * Stands in, in the build, for Chevrotain 11's `TreeBuilder` parser trait
 * (chevrotain/lib/src/parse/parser/traits/tree_builder.js), which builds concrete syntax trees.
 * The filter language's parsers are EmbeddedActionsParsers, which never build one: Chevrotain
 * constructs them with `outputCst: false`, and `initTreeBuilder` then replaces every CST hook by
 * a no-op on the instance. This class keeps exactly that: the `outputCst: false` branch of
 * `initTreeBuilder` and the two rule-stack readers that error recovery calls
 * (`recoverable.js`), copied from Chevrotain. Everything that builds or visits a CST, with
 * cst.js and cst_visitor.js behind it, is left out: each method throws (see chevrotain-left-out.ts).
 *
 * Chevrotain copies the trait's prototype methods onto its Parser class (`applyMixins`), so the
 * method names are Chevrotain's; scripts/chevrotain-stubs.ts checks at build time that the real
 * trait has no method this class lacks.
 *
 * @module
 * @internal
 */
import { leftOut } from './chevrotain-left-out.js';

const noop = () => {};
const cst = (method: string): never => leftOut(`CST building (TreeBuilder.${method})`)();

/* eslint-disable @typescript-eslint/no-explicit-any -- the parser's state, as Chevrotain's own untyped JavaScript has it */
export class TreeBuilder {
  [state: string]: any;

  initTreeBuilder(this: any, config: { outputCst?: boolean; nodeLocationTracking?: string }): void {
    if (config.outputCst !== false) cst('initTreeBuilder with outputCst');
    this.CST_STACK = [];
    this.outputCst = config.outputCst;
    this.nodeLocationTracking = Object.prototype.hasOwnProperty.call(config, 'nodeLocationTracking') ? config.nodeLocationTracking : 'none';
    this.cstInvocationStateUpdate = noop;
    this.cstFinallyStateUpdate = noop;
    this.cstPostTerminal = noop;
    this.cstPostNonTerminal = noop;
    this.cstPostRule = noop;
  }

  getPreviousExplicitRuleShortName(this: any): unknown {
    return this.RULE_STACK[this.RULE_STACK_IDX - 1];
  }

  getLastExplicitRuleOccurrenceIndex(this: any): unknown {
    return this.RULE_OCCURRENCE_STACK[this.RULE_OCCURRENCE_STACK_IDX];
  }

  // The rest of the trait, each method throwing: the instance's no-ops set above shadow the five
  // CST hooks, so none of these is ever called by a parser that builds no CST.
  setInitialNodeLocationOnlyOffsetRecovery(): never {
    return cst('setInitialNodeLocationOnlyOffsetRecovery');
  }
  setInitialNodeLocationOnlyOffsetRegular(): never {
    return cst('setInitialNodeLocationOnlyOffsetRegular');
  }
  setInitialNodeLocationFullRecovery(): never {
    return cst('setInitialNodeLocationFullRecovery');
  }
  setInitialNodeLocationFullRegular(): never {
    return cst('setInitialNodeLocationFullRegular');
  }
  cstInvocationStateUpdate(): never {
    return cst('cstInvocationStateUpdate');
  }
  cstFinallyStateUpdate(): never {
    return cst('cstFinallyStateUpdate');
  }
  cstPostRuleFull(): never {
    return cst('cstPostRuleFull');
  }
  cstPostRuleOnlyOffset(): never {
    return cst('cstPostRuleOnlyOffset');
  }
  cstPostTerminal(): never {
    return cst('cstPostTerminal');
  }
  cstPostNonTerminal(): never {
    return cst('cstPostNonTerminal');
  }
  getBaseCstVisitorConstructor(): never {
    return cst('getBaseCstVisitorConstructor');
  }
  getBaseCstVisitorConstructorWithDefaults(): never {
    return cst('getBaseCstVisitorConstructorWithDefaults');
  }
}
