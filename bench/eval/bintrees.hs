-- Binary-trees (the Benchmarks Game), one thread, as bintrees.thorin: a tree
-- of depth d has 2^d - 1 nodes and 2^d leaves (checksum 2^(d+1) - 1); strict
-- fields, so a tree is built whole. Full laziness and CSE are off, as GHC
-- would otherwise float the `make d` of the iterations out of their loop
-- (one tree checked 2^k times) and share the two `make (d - 1)` of a node
-- (a tree of d + 1 nodes: 10 MB allocated in all at depth 16 instead of
-- 358 MB). Depth from the command line (default 21); prints the sum of the
-- checksums (the stretch tree's, each depth's over its iterations, the
-- long-lived tree's).
{-# OPTIONS_GHC -fno-full-laziness -fno-cse #-}
{-# LANGUAGE BangPatterns #-}
import System.Environment (getArgs)

data Tree = Leaf | Node !Tree !Tree

make :: Int -> Tree
make 0 = Leaf
make d = Node (make (d - 1)) (make (d - 1))

check :: Tree -> Int
check Leaf = 1
check (Node l r) = 1 + check l + check r

iter :: Int -> Int -> Int -> Int
iter 0 _ !acc = acc
iter k d !acc = iter (k - 1) d (acc + check (make d))

depths :: Int -> Int -> Int -> Int -> Int
depths minD maxD d !acc
  | d > maxD = acc
  | otherwise = depths minD maxD (d + 2) (acc + iter (2 ^ (maxD - d + minD)) d 0)

main :: IO ()
main = do
  args <- getArgs
  let minD = 4
      n = case args of { (a : _) -> read a; [] -> 21 }
      maxD = max (minD + 2) n
      !stretch = check (make (maxD + 1))
      !long = make maxD
      !loops = depths minD maxD minD 0
  print (stretch + loops + check long)
