"""Pure rules: no I/O, no Discord, no database, no drawing."""
