module github.com/vkfftgo/vkfftgo

go 1.24.0
