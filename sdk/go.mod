module github.com/nameport/nameport/sdk

go 1.23
