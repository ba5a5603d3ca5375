#!/bin/sh
./hello | grep -q "hello from autotools"
