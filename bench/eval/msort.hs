-- Merge sort of 10^6 pseudo-random numbers on lists, as msort.thorin (the
-- structure of OCaml's List.sort: merges onto an accumulator, so no
-- recursion deeper than log n). Size from the command line (default
-- 1000000); prints the checksum of the sorted list.
{-# LANGUAGE BangPatterns #-}
import System.Environment (getArgs)

gen :: Int -> Int -> [Int] -> [Int]
gen 0 _ acc = acc
gen n !s acc = gen (n - 1) ((s * 1103515245 + 12345) `mod` 2147483648) (s : acc)

-- two ascending lists merged onto acc: descending
mergeDn :: [Int] -> [Int] -> [Int] -> [Int]
mergeDn [] ys acc = foldl (flip (:)) acc ys
mergeDn xs [] acc = foldl (flip (:)) acc xs
mergeDn xs@(x : xt) ys@(y : yt) acc
  | x <= y = mergeDn xt ys (x : acc)
  | otherwise = mergeDn xs yt (y : acc)

-- two descending lists merged onto acc: ascending
mergeUp :: [Int] -> [Int] -> [Int] -> [Int]
mergeUp [] ys acc = foldl (flip (:)) acc ys
mergeUp xs [] acc = foldl (flip (:)) acc xs
mergeUp xs@(x : xt) ys@(y : yt) acc
  | y <= x = mergeUp xt ys (x : acc)
  | otherwise = mergeUp xs yt (y : acc)

-- the sorted prefix and the rest of the input, both evaluated (the merges
-- are tail-recursive: their result in WHNF is the whole list)
data Run = Run ![Int] ![Int]

-- the first n (>= 1) elements of xs sorted ascending (asc) or descending,
-- and the rest of xs; the halves are sorted the other way round
srt :: Bool -> Int -> [Int] -> Run
srt _ 1 (x : t) = Run [x] t
srt _ 1 [] = Run [] []
srt asc n xs =
  case srt (not asc) (n `div` 2) xs of
    Run a rest -> case srt (not asc) (n - n `div` 2) rest of
      Run b rest2 -> Run (if asc then mergeUp a b [] else mergeDn a b []) rest2

checksum :: [Int] -> Int -> Int -> Int
checksum [] _ !acc = acc
checksum (x : t) !i !acc = checksum t (i + 1) ((acc + i * x) `mod` 1000000007)

main :: IO ()
main = do
  args <- getArgs
  let n = case args of { (a : _) -> read a; [] -> 1000000 }
  case srt True n (gen n 42 []) of
    Run s _ -> print (checksum s 1 0)
