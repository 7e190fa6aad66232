# SPDX-License-Identifier: GPL-3.0-or-later
# Builds and installs tiltpuzzle on a Linux tablet:
#
#   make                              # release build (swift build) and the man pages
#   sudo make install PREFIX=/usr     # binaries, systemd units, udev rules, sysusers, config, docs, man pages,
#                                     # the desktop entry, icon and AppStream metainfo
#   sudo make uninstall PREFIX=/usr   # removes exactly what install put there
#
# DESTDIR stages an installation (packages, tests). install takes the binaries from
# BUILDDIR and builds them only when they are missing, so `sudo make install` after
# `make` compiles nothing as root. The binaries link the Swift runtime and libstdc++
# statically: the tablet needs no Swift toolchain, only libc6, libgcc-s1, libudev1 and
# libevdev2, plus libiio0 for an IIO accelerometer (opened when one is used) and
# libsdl2-2.0-0, libsdl2-ttf-2.0-0 and libsdl2-image-2.0-0 for tiltpuzzle-gui. Building needs the packages
# README.md lists; lld comes with the Swift toolchain, libstdc++.a with libstdc++-12-dev.
# The man pages are made from docs/*.[158].md by go-md2man (Debian: go-md2man), the
# message catalogs from po/*.po by msgfmt (Debian: gettext).
# debian/rules builds the Debian packages with these two targets.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SYSCONFDIR ?= /etc
DOCDIR ?= $(PREFIX)/share/doc/tiltpuzzle
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
UDEVHWDBDIR ?= $(PREFIX)/lib/udev/hwdb.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
# The programs look for their catalogs in share/locale beside their bin folder
# (TiltSystem's Localization), so this stays $(DATADIR)/locale with BINDIR $(PREFIX)/bin.
LOCALEDIR ?= $(DATADIR)/locale

SWIFT ?= swift
CC ?= cc
# Smaller in memory (docs/performance.md, memory): lld packs the relative relocations
# (DT_RELR, glibc 2.36 and newer), the programs export no symbols, and libstdc++, which
# only the Swift runtime uses, is linked in: -lstdc++ finds its archive first in
# STATICCXXDIR, a folder that holds nothing else.
STATICCXXDIR ?= .build/static-libstdc++
LEANFLAGS = -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xswiftc -L$(abspath $(STATICCXXDIR))
# Debian's hardening, what debian/rules' hardening=+all asks for (docs/performance.md,
# hardening): the programs are position-independent and Swift guards their stack
# frames already; these make the relocated data read-only after start (RELRO) with
# every symbol bound at start (-z now), so no writable pointer is left to redirect a
# call. The project compiles no C of its own (its C targets are headers), so
# _FORTIFY_SOURCE has nothing to act on (debian/*.lintian-overrides say so). Link flags
# only: `make` and the package's build compile the same, and the second relinks
# nothing.
HARDENFLAGS = -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
SWIFTFLAGS ?= -c release --static-swift-stdlib $(LEANFLAGS) $(HARDENFLAGS)
BUILDDIR ?= .build/release
MANBUILDDIR ?= .build/man
MOBUILDDIR ?= .build/locale
# The desktop entry and the AppStream data with every language's texts merged in.
DESKTOPBUILDDIR ?= .build/desktop
MSGFMT ?= msgfmt
GO_MD2MAN ?= go-md2man
AWK ?= awk

INSTALL ?= install
SED ?= sed

PROGRAMS = tiltpuzzled tiltpuzzle tiltpuzzle-gui
UNITS = tiltpuzzled.service tiltpuzzled.socket
RULES = 70-tiltpuzzle.rules
HWDB = 61-tiltpuzzle-controllers.hwdb
DOCS = README.md docs/tiltpuzzled.8.md docs/tiltpuzzle.1.md docs/tiltpuzzled.conf docs/gui.md
CONFIG = $(SYSCONFDIR)/tiltpuzzle/tiltpuzzled.conf
MANPAGES = tiltpuzzle.1 tiltpuzzled.conf.5 tiltpuzzled.8
# The graphical board on the desktop: its entry in the app grid, its icon, its
# AppStream description (docs/gui.md, On the desktop). The id is the window's app id.
APPID = org.tiltpuzzle.TiltPuzzle
ICONSIZES = 48 64 128 256
ICONDIRS = $(foreach size,$(ICONSIZES),$(DATADIR)/icons/hicolor/$(size)x$(size)/apps)
# The languages the client and the window speak besides English (po/, docs/translating.md).
LINGUAS := $(shell $(SED) -e 's/\#.*//' po/LINGUAS)
# Laid out as installed, so TILTPUZZLE_LOCALEDIR=$(MOBUILDDIR) runs the build in a language.
CATALOGS = $(LINGUAS:%=$(MOBUILDDIR)/%/LC_MESSAGES/tiltpuzzle.mo)
DESKTOPFILES = $(DESKTOPBUILDDIR)/$(APPID).desktop $(DESKTOPBUILDDIR)/$(APPID).metainfo.xml
VERSION := $(shell $(SED) -n 's/.*static let current = "\(.*\)"/\1/p' Sources/TiltCommandLine/ProductVersion.swift)

# Paths the units name, filled in at install time.
SUBSTITUTE = $(SED) -e 's|@bindir@|$(BINDIR)|g' -e 's|@docdir@|$(DOCDIR)|g'

.PHONY: all programs man catalogs desktop-files install uninstall

# Part of the build (not a target of its own), so that install with the programs
# built makes nothing.
LINKSTATICCXX = mkdir -p $(STATICCXXDIR) && archive=$$($(CC) -print-file-name=libstdc++.a) && \
	test -f "$$archive" && ln -sf "$$archive" $(STATICCXXDIR)/libstdc++.a

all: programs man catalogs desktop-files

programs:
	$(LINKSTATICCXX)
	$(SWIFT) build $(SWIFTFLAGS) --product tiltpuzzled
	$(SWIFT) build $(SWIFTFLAGS) --product tiltpuzzle
	$(SWIFT) build $(SWIFTFLAGS) --product tiltpuzzle-gui

$(PROGRAMS:%=$(BUILDDIR)/%):
	$(LINKSTATICCXX)
	$(SWIFT) build $(SWIFTFLAGS) --product $(@F)

man: $(MANPAGES:%=$(MANBUILDDIR)/%)

catalogs: $(CATALOGS)

desktop-files: $(DESKTOPFILES)

# The templates' texts in every language of po/LINGUAS (msgfmt reads the list), as GNOME
# applications merge theirs: Name[de]=…, <p xml:lang="de">…; the metainfo by AppStream's
# ITS rules, which the appstream package installs.
$(DESKTOPBUILDDIR)/$(APPID).desktop: desktop/$(APPID).desktop.in po/LINGUAS $(LINGUAS:%=po/%.po)
	@mkdir -p $(@D)
	$(MSGFMT) --desktop --template=$< -d po -o $@.tmp
	mv -f $@.tmp $@

$(DESKTOPBUILDDIR)/$(APPID).metainfo.xml: desktop/$(APPID).metainfo.xml.in po/LINGUAS $(LINGUAS:%=po/%.po)
	@mkdir -p $(@D)
	$(MSGFMT) --xml --template=$< -d po -o $@.tmp
	mv -f $@.tmp $@

$(MOBUILDDIR)/%/LC_MESSAGES/tiltpuzzle.mo: po/%.po
	@mkdir -p $(@D)
	$(MSGFMT) --check -o $@.tmp $<
	mv -f $@.tmp $@

# A page's markdown starts with "# name(section)", its title on the web; go-md2man
# takes the page's header from a "% name section date source" line instead. Links to
# files next to the page serve the web view: the page keeps their text. The
# configuration page lists the keys of the example file (scripts/conf-keys.awk).
$(MANBUILDDIR)/%: docs/%.md docs/tiltpuzzled.conf scripts/conf-keys.awk Sources/TiltCommandLine/ProductVersion.swift
	@mkdir -p $(@D)
	$(AWK) -f scripts/conf-keys.awk docs/tiltpuzzled.conf > $@.keys
	$(SED) -e '1s/^# \([^(]*\)(\([1-8]\))$$/% \1 \2 "" "tiltpuzzle $(VERSION)"/' \
		-e 's/\[\([^]]*\)\]([^:)]*)/\1/g' \
		-e '/^<!-- keys: /{' -e 'r $@.keys' -e 'd' -e '}' $< > $@.md
	$(GO_MD2MAN) -in $@.md -out $@.tmp
	rm -f $@.keys $@.md
	mv -f $@.tmp $@

install: $(PROGRAMS:%=$(BUILDDIR)/%) man catalogs desktop-files
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(UDEVHWDBDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(SYSCONFDIR)/tiltpuzzle $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(DATADIR)/applications $(DESTDIR)$(DATADIR)/metainfo $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps \
		$(ICONDIRS:%=$(DESTDIR)%)
	$(INSTALL) -m 0755 $(PROGRAMS:%=$(BUILDDIR)/%) $(DESTDIR)$(BINDIR)/
	for unit in $(UNITS); do \
		$(SUBSTITUTE) systemd/$$unit > $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp && \
		chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp && \
		mv -f $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit.tmp $(DESTDIR)$(SYSTEMDUNITDIR)/$$unit || exit 1; \
	done
	$(INSTALL) -m 0644 udev/$(RULES) $(DESTDIR)$(UDEVRULESDIR)/$(RULES)
	$(INSTALL) -m 0644 udev/$(HWDB) $(DESTDIR)$(UDEVHWDBDIR)/$(HWDB)
	$(INSTALL) -m 0644 systemd/tiltpuzzle.sysusers $(DESTDIR)$(SYSUSERSDIR)/tiltpuzzle.conf
	$(INSTALL) -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	for page in $(MANPAGES); do \
		$(INSTALL) -m 0644 $(MANBUILDDIR)/$$page $(DESTDIR)$(MANDIR)/man$${page##*.}/$$page || exit 1; \
	done
	$(INSTALL) -m 0644 $(DESKTOPBUILDDIR)/$(APPID).desktop $(DESTDIR)$(DATADIR)/applications/$(APPID).desktop
	$(INSTALL) -m 0644 $(DESKTOPBUILDDIR)/$(APPID).metainfo.xml $(DESTDIR)$(DATADIR)/metainfo/$(APPID).metainfo.xml
	$(INSTALL) -m 0644 desktop/$(APPID).svg $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APPID).svg
	for size in $(ICONSIZES); do \
		$(INSTALL) -m 0644 desktop/icons/$$size.png $(DESTDIR)$(DATADIR)/icons/hicolor/$${size}x$$size/apps/$(APPID).png || exit 1; \
	done
	for lang in $(LINGUAS); do \
		$(INSTALL) -d $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES && \
		$(INSTALL) -m 0644 $(MOBUILDDIR)/$$lang/LC_MESSAGES/tiltpuzzle.mo $(DESTDIR)$(LOCALEDIR)/$$lang/LC_MESSAGES/tiltpuzzle.mo || exit 1; \
	done
	@# An existing configuration is the administrator's: never overwritten.
	test -e $(DESTDIR)$(CONFIG) || $(INSTALL) -m 0644 docs/tiltpuzzled.conf $(DESTDIR)$(CONFIG)

uninstall:
	rm -f $(PROGRAMS:%=$(DESTDIR)$(BINDIR)/%)
	rm -f $(UNITS:%=$(DESTDIR)$(SYSTEMDUNITDIR)/%)
	rm -f $(DESTDIR)$(UDEVRULESDIR)/$(RULES) $(DESTDIR)$(UDEVHWDBDIR)/$(HWDB)
	rm -f $(DESTDIR)$(SYSUSERSDIR)/tiltpuzzle.conf
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOCS)))
	for page in $(MANPAGES); do rm -f $(DESTDIR)$(MANDIR)/man$${page##*.}/$$page; done
	rm -f $(DESTDIR)$(DATADIR)/applications/$(APPID).desktop $(DESTDIR)$(DATADIR)/metainfo/$(APPID).metainfo.xml
	rm -f $(DESTDIR)$(DATADIR)/icons/hicolor/scalable/apps/$(APPID).svg $(ICONDIRS:%=$(DESTDIR)%/$(APPID).png)
	rm -f $(LINGUAS:%=$(DESTDIR)$(LOCALEDIR)/%/LC_MESSAGES/tiltpuzzle.mo)
	@# The configuration goes only if nobody changed it.
	if cmp -s docs/tiltpuzzled.conf $(DESTDIR)$(CONFIG); then rm -f $(DESTDIR)$(CONFIG); fi
	rmdir $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSCONFDIR)/tiltpuzzle 2>/dev/null || :
