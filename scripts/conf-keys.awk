# SPDX-License-Identifier: GPL-3.0-or-later
# Turns docs/tiltpuzzled.conf into the key list of the tiltpuzzled.conf(5) manual
# page (markdown, for go-md2man): each section a subsection, each key an entry
# made of its "#key = default" line and the "# ..." lines above it. The example
# file stays the one description of the keys (ConfigurationFileTests checks it
# against the parser's table); `make man` runs this.
#
#   awk -f scripts/conf-keys.awk docs/tiltpuzzled.conf
#
# A line of another shape fails, so a change of the file's layout cannot drop keys
# from the page unnoticed.

BEGIN { inHeader = 1 }

# The opening comment speaks to someone editing the file; the page says it its own way.
inHeader { if ($0 == "") inHeader = 0; next }

/^$/ { next }

/^\[[a-z]+\]$/ {
    if (text != "") fail("a comment with no key after it")
    printf "### %s\n\n", $0
    next
}

/^# / {
    text = text (text == "" ? "" : " ") substr($0, 3)
    next
}

/^#[a-z-]+ =/ {
    if (text == "") fail("a key with no comment above it")
    entry = substr($0, 2)
    sub(/ +$/, "", entry)
    printf "`%s`\n:   %s\n\n", entry, text
    text = ""
    keys++
    next
}

{ fail("unexpected line") }

END {
    if (failed) exit 1
    if (text != "") fail("a comment with no key after it")
    if (keys == 0) fail("no keys")
}

function fail(why) {
    printf "%s:%d: %s: %s\n", FILENAME, FNR, why, $0 > "/dev/stderr"
    failed = 1
    exit 1
}
