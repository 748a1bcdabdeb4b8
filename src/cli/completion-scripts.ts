/**
 * The completion scripts `backlink-query completion <shell>` prints. Each one only hands the
 * command line to `backlink-query completion --complete -- <words...>` and offers its answer
 * (see completion.ts): the first line `space` or `nospace`, then one candidate per line.
 *
 * @module
 * @internal
 */

/** The shells with a completion script. @internal */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** A shell with a completion script. @internal */
export type Shell = (typeof SHELLS)[number];

// Bash 3.2 (macOS's) too: no mapfile; compopt (bash 4) is only tried, so there a single match gets a space.
const BASH = `# bash completion for backlink-query: eval "$(backlink-query completion bash)"
_backlink_query() {
  local -a reply=()
  local line
  # The words after the program's name, up to the one being completed, as bash split them.
  while IFS= read -r line; do reply+=("$line"); done < <(command backlink-query completion --complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
  COMPREPLY=("\${reply[@]:1}")
  if [[ \${reply[0]} == nospace ]]; then
    compopt -o nospace 2>/dev/null
    # A single match inside an open quote: readline would close the quote, and a filter goes on;
    # a second match, one space longer, keeps it open (the common part is inserted).
    if (( \${#COMPREPLY[@]} == 1 )) && [[ \${COMP_WORDS[COMP_CWORD]} == [\\"\\']* ]]; then
      COMPREPLY+=("\${COMPREPLY[0]} ")
    fi
  fi
}
complete -F _backlink_query backlink-query
`;

const ZSH = `#compdef backlink-query
# zsh completion for backlink-query: source <(backlink-query completion zsh)
_backlink_query() {
  local -a reply candidates
  # The words after the program's name before the cursor's word, then that word up to the cursor.
  reply=("\${(@f)$(command backlink-query completion --complete -- "\${(@)words[2,CURRENT-1]}" "$PREFIX" 2>/dev/null)}")
  candidates=("\${(@)reply[2,-1]}")
  (( \${#candidates} )) || return 1
  if [[ \${reply[1]} == nospace ]]; then
    compadd -U -S '' -- "\${candidates[@]}"
  else
    compadd -U -- "\${candidates[@]}"
  fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _backlink_query "$@"
else
  compdef _backlink_query backlink-query
fi
`;

const FISH = `# fish completion for backlink-query: backlink-query completion fish | source
function __backlink_query_complete
    # The words after the program's name before the cursor's word, then that word up to the cursor.
    set -l words (commandline -opc)
    set -l reply (command backlink-query completion --complete -- $words[2..-1] (commandline -ct) 2>/dev/null)
    set -q reply[2]; or return
    printf '%s\\n' $reply[2..-1]
    # A single match where no space may follow (inside a filter): fish would close the quote and
    # add a space; a second match, one space longer, makes it insert the common part only.
    if test "$reply[1]" = nospace; and not set -q reply[3]
        printf '%s \\n' $reply[2]
    end
end
complete -c backlink-query -f -a '(__backlink_query_complete)'
`;

const SCRIPTS: Readonly<Record<Shell, string>> = { bash: BASH, zsh: ZSH, fish: FISH };

/**
 * The completion script of a shell.
 *
 * @example
 * ```ts
 * completionScript('bash'); // '# bash completion for backlink-query ...'
 * ```
 * @internal
 */
export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}
