# bash completion for ckpt. Commands and options are read from the program's own
# --help (ckpt --help, ckpt COMMAND --help), so they never drift from it;
# arguments complete as files and folders.
_ckpt()
{
    local cur prev words cword
    _init_completion 2>/dev/null || {
        cur="${COMP_WORDS[COMP_CWORD]}"
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    }
    local ckpt="${words[0]}"
    if [[ $cword -eq 1 ]]; then
        local commands
        commands="$("$ckpt" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')"
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    if [[ "$cur" == -* ]]; then
        local options
        options="$("$ckpt" "${words[1]}" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)"
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$cur"))
}
complete -F _ckpt ckpt
