#!/bin/sh
# assemble_golden.sh TEMPLATE_DIR GOLDEN: a fix golden (tests/lint/fix/golden/*.sh) as the whole script
# `roce-lint fix` renders: each line "# @template NAME" replaced by lint/fix/templates/NAME.
set -eu
dir=$1
golden=$2
while IFS= read -r line || [ -n "$line" ]; do
  case $line in
    '# @template '*)
      name=${line#'# @template '}
      case $name in
        */* | '' | .*)
          echo "assemble_golden.sh: $golden: bad template name: $name" >&2
          exit 1
          ;;
      esac
      cat -- "$dir/$name"
      ;;
    *) printf '%s\n' "$line" ;;
  esac
done <"$golden"
